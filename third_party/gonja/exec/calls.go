package exec

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sort"

	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/pkg/errors"
)

func (e *Evaluator) evalCall(node *nodes.Call) *Value {
	fn := e.Eval(node.Func)
	if !fn.IsCallable() {
		getAttributeNode, ok := node.Func.(*nodes.GetAttribute)
		if node.Parent == nil || !ok {
			return AsValue(errors.Errorf(`%s is not callable`, node.Func))
		}
		return e.evalMethod(node.Parent, getAttributeNode.Attribute, node)
	}
	if fn.IsError() {
		return AsValue(errors.Wrapf(fn, `unable to evaluate function '%s'`, node.Func))
	}

	var current reflect.Value
	var isSafe bool

	var params []reflect.Value
	var err error
	t := fn.Val.Type()

	if t.NumIn() == 1 && t.In(0) == reflect.TypeFor[*VarArgs]() {
		params, err = e.evalVarArgs(node)
	} else if t.NumIn() == 2 && t.In(0) == reflect.TypeFor[*Evaluator]() && t.In(1) == reflect.TypeFor[*VarArgs]() {
		params, err = e.evalVarArgs(node)
		params = append([]reflect.Value{reflect.ValueOf(e)}, params...)
	} else {
		params, err = e.evalParams(node, fn)
	}
	if err != nil {
		return AsValue(errors.Wrapf(err, `unable to evaluate parameters`))
	}
	functionName := runtime.FuncForPC(fn.Val.Pointer()).Name()
	if nameNode, ok := node.Func.(*nodes.Name); ok {
		functionName = nameNode.Name.Val
	}

	// Call it and get first return parameter back
	values := fn.Val.Call(params)
	rv := values[0]
	if t.NumOut() == 2 {
		e := values[1].Interface()
		if e != nil {
			err, ok := e.(error)
			if !ok {
				return AsValue(fmt.Errorf("second return value of function '%s' is not an error", functionName))
			}
			if err, ok := err.(ErrInvalidCall); ok && err != nil {
				return AsValue(fmt.Errorf("invalid call to function '%s': %s", functionName, err.Error()))
			} else if err != nil {
				return AsValue(err)
			}
		}
	}

	if rv.Type() != typeOfValuePtr {
		current = reflect.ValueOf(rv.Interface())
	} else {
		// Return the function call value
		current = rv.Interface().(*Value).Val
		isSafe = rv.Interface().(*Value).Safe
		if !current.IsValid() {
			return rv.Interface().(*Value) // docket: a None or an Undefined keeps which it is
		}
	}

	if !current.IsValid() {
		// Value is not valid (e. g. NIL value)
		return AsValue(nil)
	}
	value := &Value{Val: current, Safe: isSafe}
	if value.IsError() {
		if err, ok := value.Interface().(ErrInvalidCall); ok {
			return AsValue(fmt.Errorf("invalid call to function '%s': %s", functionName, err.Error()))
		}
	}
	return value
}

func (e *Evaluator) evalMethod(parentNode nodes.Node, method string, call *nodes.Call) *Value {
	parent := e.Eval(parentNode)
	if parent.IsError() {
		return AsValue(errors.Wrapf(parent, "unable to evaluate '%s'", parentNode))
	}
	parameters, perr := e.callArgs(call)
	if perr != nil {
		return AsValue(errors.Wrapf(perr, "unable to evaluate parameters"))
	}
	var result any
	err := fmt.Errorf("unknown method '%s' for '%s'", method, parent.String())
	found := true // docket: a str, list or number without the method is jinja2's no-attribute error
	switch {
	case parent.IsString():
		if method, ok := e.Environment.Methods.Str.Get(method); ok {
			result, err = method(parent.String(), parent, parameters)
		}
	case parent.IsBool():
		if method, ok := e.Environment.Methods.Bool.Get(method); ok {
			result, err = method(parent.Bool(), parent, parameters)
		}
	case parent.IsFloat():
		if method, ok := e.Environment.Methods.Float.Get(method); ok {
			result, err = method(parent.Float(), parent, parameters)
		}
	case parent.IsInteger():
		if method, ok := e.Environment.Methods.Int.Get(method); ok {
			result, err = method(parent.Integer(), parent, parameters)
		}
	case parent.IsDict():
		if method, ok := e.Environment.Methods.Dict.Get(method); ok {
			dict := parent.ToGoSimpleType(false)
			if err, ok := dict.(error); err != nil && ok {
				return AsValue(fmt.Errorf("failed to cast '%s' to a Go type: %s", parent.String(), err))
			}
			goMap, ok := dict.(map[string]any)
			if !ok {
				return AsValue(fmt.Errorf("failed to cast '%s' to map[string]interface{}: %s", parent.String(), err))
			}
			before := map[string]bool{}
			for k := range goMap {
				before[k] = true
			}
			result, err = method(goMap, parent, parameters)
			if err == nil {
				writeBack(parent, goMap, before, parameters)
			}
		}
	case parent.IsList():
		if method, ok := e.Environment.Methods.List.Get(method); ok {
			list := parent.ToGoSimpleType(false)
			if err, ok := list.(error); err != nil && ok {
				return AsValue(fmt.Errorf("failed to cast '%s' to a Go type: %s", parent.String(), err))
			}
			goList, ok := list.([]any)
			if !ok {
				return AsValue(fmt.Errorf("failed to cast '%s' to []interface{}: %s", parent.String(), err))
			}
			result, err = method(goList, parent, parameters)
		}
	default:
		err = AsValue(errors.Errorf(`'%s' is not callable on %s`, method, parent))
	}
	switch {
	case parent.IsString():
		_, found = e.Environment.Methods.Str.Get(method)
	case parent.IsBool():
		_, found = e.Environment.Methods.Bool.Get(method)
	case parent.IsFloat():
		_, found = e.Environment.Methods.Float.Get(method)
	case parent.IsInteger():
		_, found = e.Environment.Methods.Int.Get(method)
	case parent.IsList():
		_, found = e.Environment.Methods.List.Get(method)
	}
	if !found {
		return AsValue(fmt.Errorf("'%s object' has no attribute '%s'", PyTypeName(parent), method))
	}
	if err != nil {
		// docket: ErrInvalidCall is any error; the method's own text
		// follows (the parent's repr, which may be long and hold ": ",
		// is left out so the render can find where that text starts)
		if callErr, ok := err.(ErrInvalidCall); ok {
			return AsValue(fmt.Errorf("invalid call to method '%s': %s", method, callErr.Error()))
		}
		return AsValue(err)
	}
	if n, ok := parentNode.(*nodes.Name); ok && e.Environment.Context.Has(n.Name.Val) {
		e.Environment.Context.Set(n.Name.Val, parent.Interface())
	}

	return AsValue(result)
}

// writeBack (docket) applies a dict method's changes (update, pop, clear,
// setdefault) to the dict itself: upstream ran them on a converted copy,
// so `{% do d.update({k: v}) %}` on a `{}` literal changed nothing. Keys
// the call added or named take their new values (the argument's own,
// unconverted, so a list stays the list others hold); removed keys go.
func writeBack(parent *Value, goMap map[string]any, before map[string]bool, params *VarArgs) {
	fresh := func(k string) any {
		if len(params.Args) == 1 {
			if v, ok := params.Args[0].GetItem(k); ok {
				return v.Interface()
			}
		}
		if v, ok := params.KwArgs[k]; ok {
			return v.Interface()
		}
		return goMap[k]
	}
	named := func(k string) bool {
		if len(params.Args) == 1 && params.Args[0].IsDict() {
			if _, ok := params.Args[0].GetItem(k); ok {
				return true
			}
		}
		_, ok := params.KwArgs[k]
		return ok
	}
	switch d := parent.Interface().(type) {
	case *Dict:
		kept := d.Pairs[:0]
		seen := map[string]bool{}
		for _, p := range d.Pairs {
			k := p.Key.String()
			if _, ok := goMap[k]; !ok {
				continue
			}
			seen[k] = true
			if named(k) {
				p = &Pair{Key: p.Key, Value: AsValue(fresh(k))}
			}
			kept = append(kept, p)
		}
		for _, k := range addedKeys(goMap, seen, params) {
			kept = append(kept, &Pair{Key: AsValue(k), Value: AsValue(fresh(k))})
		}
		d.Pairs = kept
	case map[string]any:
		for k := range d {
			if _, ok := goMap[k]; !ok {
				delete(d, k)
			}
		}
		for k := range goMap {
			if !before[k] || named(k) {
				d[k] = fresh(k)
			}
		}
	}
}

// addedKeys (docket) is the keys a dict method added, in Python's order:
// an update's argument's keys in its order, then its keyword arguments
// in the call's; any other (setdefault's) after them, sorted.
func addedKeys(goMap map[string]any, seen map[string]bool, params *VarArgs) []string {
	order := []string{}
	if len(params.Args) == 1 && params.Args[0].IsDict() {
		params.Args[0].Iterate(func(_, _ int, k, _ *Value) bool {
			order = append(order, k.String())
			return true
		}, func() {})
	}
	order = append(order, params.KwNames()...)
	rest := []string{}
	for k := range goMap {
		if !seen[k] && !slices.Contains(order, k) {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	added := []string{}
	for _, k := range append(order, rest...) {
		if _, in := goMap[k]; in && !seen[k] && !slices.Contains(added, k) {
			added = append(added, k)
		}
	}
	return added
}
