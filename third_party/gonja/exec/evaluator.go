package exec

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/pkg/errors"

	"github.com/nikolalohinski/gonja/v2/config"
	"github.com/nikolalohinski/gonja/v2/loaders"
	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/tokens"
)

var typeOfValuePtr = reflect.TypeFor[*Value]()

type ErrInvalidCall error

type Evaluator struct {
	Config      *config.Config
	Environment *Environment
	Loader      loaders.Loader
}

func (e *Evaluator) Eval(node nodes.Expression) *Value {
	switch n := node.(type) {
	case *nodes.None:
		return &Value{None: !n.Undefined, Undefined: n.Undefined} // docket: the literal renders "None"
	case *nodes.String:
		return AsValue(n.Val)
	case *nodes.Integer:
		return AsValue(n.Val)
	case *nodes.Float:
		return AsValue(n.Val)
	case *nodes.Bool:
		return AsValue(n.Val)
	case *nodes.List:
		return e.evalList(n)
	case *nodes.Tuple:
		return e.evalTuple(n)
	case *nodes.Dict:
		return e.evalDict(n)
	case *nodes.Pair:
		return e.evalPair(n)
	case *nodes.Name:
		return e.evalName(n)
	case *nodes.Call:
		return e.evalCall(n)
	case *nodes.GetItem:
		return e.evalGetItem(n)
	case *nodes.GetAttribute:
		return e.evalGetAttribute(n)
	case *nodes.GetSlice:
		return e.evalGetSlice(n)
	case *nodes.Error:
		return AsValue(n.Error)
	case *nodes.Negation:
		result := e.Eval(n.Term)
		if result.IsError() {
			return result
		}
		return result.Negate()
	case *nodes.BinaryExpression:
		return e.evalBinaryExpression(n)
	case *nodes.UnaryExpression:
		return e.evalUnaryExpression(n)
	case *nodes.FilteredExpression:
		return e.EvaluateFiltered(n)
	case *nodes.TestExpression:
		return e.EvalTest(n)
	case *nodes.Conditional:
		condition := e.Eval(n.Condition)
		if condition.IsError() {
			return condition
		}
		if !condition.IsNil() && condition.IsTrue() {
			return e.Eval(n.Expression)
		}
		if n.Alternative == nil {
			return AsUndefined() // jinja2: `x if c` without else is Undefined when c is false, renders ""
		}
		return e.Eval(n.Alternative)
	default:
		return AsValue(errors.Errorf(`Unknown expression type "%T"`, n))
	}
}

func (e *Evaluator) evalBinaryExpression(node *nodes.BinaryExpression) *Value {
	var (
		left  *Value
		right *Value
	)
	left = e.Eval(node.Left)
	if left.IsError() {
		return AsValue(errors.Wrapf(left, `Unable to evaluate left parameter %s`, node.Left))
	}

	switch node.Operator.Token.Val {
	// These operators allow lazy right expression evluation
	case "and", "or":
	default:
		right = e.Eval(node.Right)
		if right.IsError() {
			return AsValue(errors.Wrapf(right, `Unable to evaluate right parameter %s`, node.Right))
		}
	}

	// docket: a Decimal or an int past int64 computes and compares as
	// Python's (pynumber.go)
	if op, ok := pyOperators[node.Operator.Token.Type]; ok {
		if r := undefinedOperand(op, left, right); r != nil {
			return r // docket: Jinja2's Undefined compares equal to an Undefined only, and raises in arithmetic and ordering
		}
		if r, ok := pyNumberOp(op, left, right); ok {
			return r
		}
		if r := pyOperandTypes(op, left, right); r != nil {
			return r // Python's TypeError (pytype.go)
		}
		if r, ok := pyPlainArithmetic(op, left, right); ok {
			return r
		}
	}

	switch node.Operator.Token.Type {
	case tokens.Addition:
		if left.IsList() {
			if !right.IsList() {
				return AsValue(errors.Wrapf(right, `Unable to concatenate list to %s`, node.Right))
			}

			return concatSequences(left, right) // docket: a tuple stays a tuple
		}
		if left.IsFloat() || right.IsFloat() {
			// Result will be a float
			return AsValue(left.Float() + right.Float())
		}

		if left.IsString() || right.IsString() {
			return AsValue(left.String() + right.String())
		}

		// Result will be an integer
		return AsValue(left.Integer() + right.Integer())
	case tokens.Subtraction:
		if left.IsFloat() || right.IsFloat() {
			// Result will be a float
			return AsValue(left.Float() - right.Float())
		}
		// Result will be an integer
		return AsValue(left.Integer() - right.Integer())
	case tokens.Multiply:
		switch { // docket: sequences repeat as Python's
		case left.IsList() && right.IsInteger():
			return repeatSequence(left, right.Integer())
		case right.IsList() && left.IsInteger():
			return repeatSequence(right, left.Integer())
		case right.IsString() && left.IsInteger():
			return AsValue(strings.Repeat(right.String(), max(left.Integer(), 0)))
		}
		if left.IsFloat() || right.IsFloat() {
			// Result will be float
			return AsValue(left.Float() * right.Float())
		}
		if left.IsString() {
			return AsValue(strings.Repeat(left.String(), max(right.Integer(), 0))) // docket: Python gives '' for n < 0; strings.Repeat panics
		}
		// Result will be int
		return AsValue(left.Integer() * right.Integer())
	case tokens.Division:
		// Float division (numbers: pyPlainArithmetic above)
		return AsValue(left.Float() / right.Float())
	case tokens.FloorDivision:
		// Int division (numbers: pyPlainArithmetic above, Python's floor)
		return AsValue(int(left.Float() / right.Float()))
	case tokens.Modulo:
		// docket: Jinja2's %: printf-style formatting of a string, else
		// Python's (floored) modulo (pypercent.go)
		// a tuple literal or a tuple value (agate's Column.values())
		return PyModulo(left, right, isTuple(right))
	case tokens.Power:
		return AsValue(math.Pow(left.Float(), right.Float()))
	case tokens.Tilde:
		return AsValue(strings.Join([]string{left.String(), right.String()}, ""))
	case tokens.And:
		// Python/Jinja2 semantics: `x and y` returns x if x is falsy,
		// otherwise y. The result is the operand value, not a coerced bool,
		// so `{{ '' and 'fallback' }}` renders ''  and `{{ 'a' and 'b' }}`
		// renders 'b'. Short-circuit on the left.
		if !left.IsTrue() {
			return left
		}
		right = e.Eval(node.Right)
		if right.IsError() {
			return AsValue(errors.Wrapf(right, `Unable to evaluate right parameter %s`, node.Right))
		}
		return right
	case tokens.Or:
		// Python/Jinja2 semantics: `x or y` returns x if x is truthy,
		// otherwise y. So `{{ '' or 'fallback' }}` renders 'fallback' and
		// `{{ 'a' or 'b' }}` renders 'a'. Short-circuit on the left.
		if left.IsTrue() {
			return left
		}
		right = e.Eval(node.Right)
		if right.IsError() {
			return AsValue(errors.Wrapf(right, `Unable to evaluate right parameter %s`, node.Right))
		}
		return right
	case tokens.LowerThanOrEqual:
		if left.IsFloat() || right.IsFloat() {
			return AsValue(left.Float() <= right.Float())
		}
		if left.IsString() || right.IsString() {
			return AsValue(left.String() <= right.String())
		}
		return AsValue(left.Integer() <= right.Integer())
	case tokens.GreaterThanOrEqual:
		if left.IsFloat() || right.IsFloat() {
			return AsValue(left.Float() >= right.Float())
		}
		if left.IsString() || right.IsString() {
			return AsValue(left.String() >= right.String())
		}
		return AsValue(left.Integer() >= right.Integer())
	case tokens.Equals:
		return AsValue(left.EqualValueTo(right))
	case tokens.GreaterThan:
		if left.IsFloat() || right.IsFloat() {
			return AsValue(left.Float() > right.Float())
		}
		if left.IsString() || right.IsString() {
			return AsValue(left.String() > right.String())
		}

		return AsValue(left.Integer() > right.Integer())
	case tokens.LowerThan:
		if left.IsFloat() || right.IsFloat() {
			return AsValue(left.Float() < right.Float())
		}
		if left.IsString() || right.IsString() {
			return AsValue(left.String() < right.String())
		}

		return AsValue(left.Integer() < right.Integer())
	case tokens.Ne:
		return AsValue(!left.EqualValueTo(right))
	case tokens.In:
		if right.Undefined {
			return AsValue(false) // docket: Jinja2's Undefined iterates as empty
		}
		return pyIn(left, right) // docket: Python's TypeErrors (pytype.go)
	default:
		return AsValue(errors.Errorf(`Unknown operator "%s"`, node.Operator.Token))
	}
}

func (e *Evaluator) evalUnaryExpression(expr *nodes.UnaryExpression) *Value {
	result := e.Eval(expr.Term)
	if result.IsError() {
		return AsValue(errors.Wrapf(result, `Unable to evaluate term %s`, expr.Term))
	}
	if expr.Negative {
		if result.Undefined {
			return result.UndefinedError() // docket: Jinja2's -Undefined raises
		}
		if r, ok := pyNegate(result); ok { // docket
			return r
		}
		if result.IsNumber() {
			switch {
			case result.IsFloat():
				return AsValue(-1 * result.Float())
			case result.IsInteger():
				return AsValue(-1 * result.Integer())
			default:
				return AsValue(errors.New("Operation between a number and a non-(float/integer) is not possible"))
			}
		} else {
			return AsValue(errors.Errorf("Negative sign on a non-number expression %s", expr.Position()))
		}
	}
	return result
}

func (e *Evaluator) evalList(node *nodes.List) *Value {
	values := ValuesList{}
	for _, val := range node.Val {
		value := e.Eval(val)
		if value.IsError() { // docket: an item's error is raised (it printed as <errors.errorString Value>)
			return value
		}
		values = append(values, value)
	}
	return AsValue(values)
}

func (e *Evaluator) evalTuple(node *nodes.Tuple) *Value {
	values := Tuple{} // docket: prints as a tuple, ('a',)
	for _, val := range node.Val {
		value := e.Eval(val)
		if value.IsError() { // docket: as in a list
			return value
		}
		values = append(values, value)
	}
	return AsValue(values)
}

func (e *Evaluator) evalDict(node *nodes.Dict) *Value {
	pairs := []*Pair{}
	for _, pair := range node.Pairs {
		p := e.evalPair(pair)
		if p.IsError() {
			return AsValue(errors.Wrapf(p, `Unable to evaluate pair "%s"`, pair))
		}
		pairs = append(pairs, p.Interface().(*Pair))
	}
	return AsValue(&Dict{pairs})
}

func (e *Evaluator) evalPair(node *nodes.Pair) *Value {
	key := e.Eval(node.Key)
	if key.IsError() {
		return AsValue(errors.Wrapf(key, `Unable to evaluate key "%s"`, node.Key))
	}
	value := e.Eval(node.Value)
	if value.IsError() {
		return AsValue(errors.Wrapf(value, `Unable to evaluate value "%s"`, node.Value))
	}
	return AsValue(&Pair{stringKey(key), value})
}

// stringKey (docket): an object used as a dict key or index (a dbt
// Relation: relation_columns[relation]) stands for its string form, as
// Python hashes such objects by their rendering.
func stringKey(v *Value) *Value {
	if v == nil || !v.Val.IsValid() || v.IsString() || v.IsNumber() || v.IsBool() || v.IsNil() || v.IsList() || v.IsDict() {
		return v
	}
	if s, ok := v.Interface().(fmt.Stringer); ok {
		return AsValue(s.String())
	}
	return v
}

func (e *Evaluator) evalName(node *nodes.Name) *Value {
	val, ok := e.Environment.Context.Get(node.Name.Val)
	if !ok && e.Config.StrictUndefined && !node.Assigned {
		return AsValue(&UndefinedErr{fmt.Sprintf(`Unable to evaluate name "%s"`, node.Name.Val)})
	}
	if !ok {
		return AsUndefined() // a name set in a branch not taken, or any name when not strict
	}
	return ToValue(val)
}

func (e *Evaluator) evalGetItem(node *nodes.GetItem) *Value {
	value := e.Eval(node.Node)
	if value.IsError() {
		return AsValue(errors.Wrapf(value, `unable to evaluate target %s`, node.Node))
	}
	if value.Undefined && value.UndefinedHint != "" {
		return value.UndefinedError()
	}
	if value.IsNil() && !value.Undefined && node.Arg != nil {
		if arg := e.Eval(node.Arg); !arg.IsError() {
			return noneMiss(arg.String()) // Jinja2's getitem on None
		}
	}
	if node.Arg == nil {
		if e.Config.StrictUndefined {
			return AsValue(errors.Wrapf(value, `argument is undefined to access: %s`, node.Node))
		} else {
			return AsValue(nil)
		}
	}

	argument := stringKey(e.Eval(node.Arg))
	var key any
	switch {
	case argument != nil && argument.IsString():
		key = argument.String()
	case argument != nil && argument.IsInteger():
		key = argument.Integer()
	case argument.IsNil() && e.Config.StrictUndefined:
		return AsValue(errors.Wrapf(value, `argument is undefined to access: %s`, node.Node))
	default:
		return AsValue(errors.Wrapf(value, `argument %s does not evaluate to string or integer in: %s`, node.Arg, node.Node))
	}

	item, found := value.GetItem(key)
	if !found && argument.IsString() {
		item, found = value.GetAttribute(argument.String())
	}
	if !found {
		if item.IsError() {
			return AsValue(errors.Wrapf(item, `unable to evaluate %s`, node))
		}
		if e.Config.StrictUndefined && !(value.IsDict() && argument.IsString()) {
			return AsValue(&UndefinedErr{fmt.Sprintf(`unable to evaluate %s: item '%s' not found`, node, node.Arg)})
		}
		if value.IsDict() && argument.IsString() {
			return dictMiss(argument.String())
		}
		return AsUndefined()
	}
	return item
}

func (e *Evaluator) evalGetSlice(node *nodes.GetSlice) *Value {
	value := e.Eval(node.Node)
	if value.IsError() {
		return AsValue(errors.Wrapf(value, `unable to evaluate target %s`, node.Node))
	}
	if !value.CanSlice() {
		return AsValue(errors.Wrapf(value, `can not slice %s`, node.Node))
	}

	n := value.Len()

	// --- step ---
	step := 1
	if node.Step != nil {
		stepValue := e.Eval(node.Step)
		if stepValue.IsError() {
			return AsValue(errors.Wrapf(value, `unable to evaluate slice step %s`, node.Step))
		}
		if !stepValue.IsInteger() {
			return AsValue(errors.Errorf(`slice step is not an integer: %s`, stepValue))
		}
		step = stepValue.Integer()
		if step == 0 {
			return AsValue(errors.New("slice step cannot be zero"))
		}
	}

	// --- start ---
	var start int
	startProvided := node.Start != nil
	if startProvided {
		startValue := e.Eval(node.Start)
		if startValue.IsError() {
			return AsValue(errors.Wrapf(value, `unable to evaluate slice start %s`, node.Start))
		}
		if !startValue.IsInteger() {
			return AsValue(errors.Errorf(`slice start is not an integer: %s`, startValue))
		}
		start = startValue.Integer()
	}

	// --- end ---
	var end int
	endProvided := node.End != nil
	if endProvided {
		endValue := e.Eval(node.End)
		if endValue.IsError() {
			return AsValue(errors.Wrapf(value, `unable to evaluate slice end %s`, node.End))
		}
		if !endValue.IsInteger() {
			return AsValue(errors.Errorf(`slice end is not an integer: %s`, endValue))
		}
		end = endValue.Integer()
	}

	// docket: a value that slices as its Python type does (range() gives a
	// range, agate's Row and Column a tuple) is handed Python's bounds
	if ps, ok := value.Interface().(PySlicer); ok {
		lo, hi := pythonSliceBounds(n, start, end, step, startProvided, endProvided)
		return AsValue(ps.PySlice(lo, hi, step))
	}

	// Fast path: step == 1 → use the existing Slice() method (preserves prior behavior).
	if step == 1 {
		s := 0
		if startProvided {
			s = start
			if s < 0 {
				s = n + s
			}
		}
		ee := n
		if endProvided {
			ee = end
			if ee < 0 {
				ee = n + ee
			}
		}
		return value.Slice(s, ee)
	}

	// --- general case: emulate Python's slice with start/stop/step (incl. negative step) ---
	start, end = pythonSliceBounds(n, start, end, step, startProvided, endProvided)

	// Materialise the underlying sequence into items, then walk by `step`.
	isString := value.getResolvedValue().Kind() == reflect.String
	var srcRunes []rune
	var srcLen int
	if isString {
		srcRunes = []rune(value.getResolvedValue().String())
		srcLen = len(srcRunes)
	} else {
		srcLen = n
	}

	if isString {
		var out []rune
		if step > 0 {
			for i := start; i < end && i < srcLen; i += step {
				if i < 0 {
					continue
				}
				out = append(out, srcRunes[i])
			}
		} else {
			for i := start; i > end && i >= 0; i += step {
				if i >= srcLen {
					continue
				}
				out = append(out, srcRunes[i])
			}
		}
		return AsValue(string(out))
	}

	out := make([]any, 0)
	if step > 0 {
		for i := start; i < end && i < srcLen; i += step {
			if i < 0 {
				continue
			}
			item := value.Index(i)
			if item != nil {
				out = append(out, item.Interface())
			}
		}
	} else {
		for i := start; i > end && i >= 0; i += step {
			if i >= srcLen {
				continue
			}
			item := value.Index(i)
			if item != nil {
				out = append(out, item.Interface())
			}
		}
	}
	return AsValue(out)
}

// pythonSliceBounds returns (start, stop) indices following Python's slice
// semantics, including handling of negative indices and negative step.
func pythonSliceBounds(length, start, stop, step int, startProvided, stopProvided bool) (int, int) {
	if step > 0 {
		if !startProvided {
			start = 0
		} else {
			if start < 0 {
				start += length
			}
			if start < 0 {
				start = 0
			}
			if start > length {
				start = length
			}
		}
		if !stopProvided {
			stop = length
		} else {
			if stop < 0 {
				stop += length
			}
			if stop < 0 {
				stop = 0
			}
			if stop > length {
				stop = length
			}
		}
		return start, stop
	}

	// step < 0
	if !startProvided {
		start = length - 1
	} else {
		if start < 0 {
			start += length
		}
		if start < 0 {
			start = -1
		}
		if start >= length {
			start = length - 1
		}
	}
	if !stopProvided {
		stop = -1
	} else {
		if stop < 0 {
			stop += length
		}
		if stop < -1 {
			stop = -1
		}
		if stop >= length {
			stop = length - 1
		}
	}
	return start, stop
}
func (e *Evaluator) evalGetAttribute(node *nodes.GetAttribute) *Value {
	value := e.Eval(node.Node)
	if value.IsError() {
		return AsValue(errors.Wrapf(value, `Unable to evaluate target %s`, node.Node))
	}
	if value.Undefined && value.UndefinedHint != "" {
		return value.UndefinedError() // Jinja2's words (was "Can't use Getitem on None")
	}
	if value.IsNil() && !value.Undefined && node.Attribute != "" {
		return noneMiss(node.Attribute) // Jinja2's getattr on None
	}

	if node.Attribute != "" {
		attr, found := value.GetAttribute(node.Attribute)
		if !found {
			attr, found = value.GetItem(node.Attribute)
		}
		if !found {
			if attr.IsError() {
				return AsValue(errors.Wrapf(attr, `Unable to evaluate %s`, node))
			}
			// a dict's missing key is Jinja2's Undefined even under
			// StrictUndefined, as dbt renders (its run-time environment
			// keeps Jinja2's default Undefined): a flat-graph node's
			// node.raw_sql or node.raw_code, a source's node.alias
			if e.Config.StrictUndefined && !value.IsDict() {
				return AsValue(&UndefinedErr{fmt.Sprintf(`Unable to evaluate %s: attribute '%s' not found`, node, node.Attribute)})
			}
			if value.IsDict() {
				return dictMiss(node.Attribute)
			}
			return AsUndefined()
		}
		return attr
	} else {
		item, found := value.GetItem(node.Index)
		if !found {
			if item.IsError() {
				return AsValue(errors.Wrapf(item, `Unable to evaluate %s`, node))
			}
			if e.Config.StrictUndefined {
				return AsValue(&UndefinedErr{fmt.Sprintf(`Unable to evaluate %s: item %d not found`, node, node.Index)})
			}
			return AsUndefined()
		}
		return item
	}
}

func (e *Evaluator) evalVarArgs(node *nodes.Call) ([]reflect.Value, error) {
	params, err := e.callArgs(node)
	if err != nil {
		return nil, err
	}
	return []reflect.Value{reflect.ValueOf(params)}, nil
}

// callArgs evaluates a call's arguments, *StarArgs and **StarKwargs
// spread after the written ones (docket).
func (e *Evaluator) callArgs(node *nodes.Call) (*VarArgs, error) {
	params := &VarArgs{
		Args:   []*Value{},
		KwArgs: map[string]*Value{},
	}
	for _, param := range node.Args {
		value := e.Eval(param)
		if value.IsError() {
			return nil, value
		}
		params.Args = append(params.Args, value)
	}
	if node.StarArgs != nil {
		value := e.Eval(node.StarArgs)
		if value.IsError() {
			return nil, value
		}
		if !value.IsNil() {
			if !value.IsList() {
				return nil, errors.Errorf("*%s: not a list", node.StarArgs)
			}
			value.Iterate(func(_, _ int, item, _ *Value) bool {
				params.Args = append(params.Args, item)
				return true
			}, func() {})
		}
	}

	for _, key := range kwargOrder(node) { // docket: in the call's order
		value := e.Eval(node.Kwargs[key])
		if value.IsError() {
			return nil, value
		}
		params.KwArgs[key] = value
		params.KwOrder = append(params.KwOrder, key)
	}
	if node.StarKwargs != nil {
		value := e.Eval(node.StarKwargs)
		if value.IsError() {
			return nil, value
		}
		if !value.IsNil() {
			if !value.IsDict() {
				return nil, errors.Errorf("**%s: not a dict", node.StarKwargs)
			}
			var dup error
			value.Iterate(func(_, _ int, key, item *Value) bool {
				k := key.String()
				if _, seen := params.KwArgs[k]; seen {
					dup = errors.Errorf("got multiple values for keyword argument '%s'", k)
					return false
				}
				params.KwArgs[k] = item
				params.KwOrder = append(params.KwOrder, k)
				return true
			}, func() {})
			if dup != nil {
				return nil, dup
			}
		}
	}
	return params, nil
}

func (e *Evaluator) evalParams(node *nodes.Call, fn *Value) ([]reflect.Value, error) {
	// TODO: add the ability to detect the function signature and see if it wants a pointer to the evaluator

	args := node.Args
	t := fn.Val.Type()

	if len(args) != t.NumIn() && !(len(args) >= t.NumIn()-1 && t.IsVariadic()) {
		return nil, errors.Errorf(
			"function input argument count (%d) of '%s' must be equal to the calling argument count (%d)",
			t.NumIn(),
			node.String(),
			len(args),
		)
	}

	// Output arguments
	if t.NumOut() != 1 && t.NumOut() != 2 {
		msg := "'%s' must have exactly 1 or 2 output arguments, the second argument must be of type error"
		return nil, errors.Errorf(msg, node.String())
	}

	// Evaluate all parameters
	var parameters []reflect.Value

	numArgs := t.NumIn()
	isVariadic := t.IsVariadic()
	var functionArgument reflect.Type

	for index, argument := range args {
		evaluatedArgument := e.Eval(argument)
		if evaluatedArgument.IsError() {
			return nil, evaluatedArgument
		}

		if isVariadic {
			if index >= numArgs-1 {
				functionArgument = t.In(numArgs - 1).Elem()
			} else {
				functionArgument = t.In(index)
			}
		} else {
			functionArgument = t.In(index)
		}

		if functionArgument != typeOfValuePtr {
			// Function's argument is not a *gonja.Value, then we have to check whether input argument is of the same type as the function's argument
			if !isVariadic && functionArgument != reflect.TypeOf(evaluatedArgument.Interface()) && functionArgument.Kind() != reflect.Interface {
				return nil, errors.Errorf(
					"function input argument %d of '%s' must be of type %s or *gonja.Value (not %T)",
					index,
					node.String(),
					functionArgument.String(),
					evaluatedArgument.Interface(),
				)
			} else if functionArgument != reflect.TypeOf(evaluatedArgument.Interface()) && functionArgument.Kind() != reflect.Interface {
				return nil, errors.Errorf(
					"function variadic input argument of '%s' must be of type %s or *gonja.Value (not %T)",
					node.String(),
					functionArgument.String(),
					evaluatedArgument.Interface(),
				)
			}
			parameters = append(parameters, reflect.ValueOf(evaluatedArgument.Interface()))
		} else {
			parameters = append(parameters, reflect.ValueOf(evaluatedArgument))
		}
	}

	// Check if any of the values are invalid
	for _, p := range parameters {
		if p.Kind() == reflect.Invalid {
			return nil, errors.Errorf("calling a function using an invalid parameter")
		}
	}

	return parameters, nil
}

// kwargOrder (docket) is a call's keyword names as written; a Call built
// without the order has its names sorted.
func kwargOrder(node *nodes.Call) []string {
	if len(node.KwargOrder) == len(node.Kwargs) {
		return node.KwargOrder
	}
	names := make([]string, 0, len(node.Kwargs))
	for k := range node.Kwargs {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// AsUndefined (docket) is Jinja2's Undefined where it is no error: it
// renders "", is not defined, and default() replaces it; a nil without
// the flag is None (the literal's or a host's), which prints "None".
func AsUndefined() *Value { return &Value{Undefined: true} }

// UndefinedErr (docket) is what strict mode makes of what Jinja2 gives as
// an Undefined: a name set nowhere, an item or attribute not found. Used
// as a value it is an error, as StrictUndefined raises; a test (is
// defined, is none, ...) sees an Undefined, as Jinja2's tests do.
type UndefinedErr struct{ Msg string }

func (e *UndefinedErr) Error() string { return e.Msg }

// dictMiss is Jinja2's Undefined for a dict's missing key (d.x, d['x']):
// it renders "", is falsy and not defined, and raises where Jinja2's does
// (undefinedOperand, UndefinedFilter).
func dictMiss(key string) *Value {
	return &Value{Undefined: true, UndefinedHint: fmt.Sprintf("'dict object' has no attribute '%s'", key)}
}

// noneMiss is an attribute or item of None: Jinja2's Undefined, as a dict's
// missing key is (none.x is defined is False, none.x or 'fb' is 'fb',
// none.x.y raises; a singular test's node.test_metadata.name in a graph
// walker). It was an error, which a test answered as for any value until
// tests raised on errors (review46).
func noneMiss(key string) *Value {
	return &Value{Undefined: true, UndefinedHint: fmt.Sprintf("'None' has no attribute '%s'", key)}
}

// UndefinedError is the error Jinja2 raises where an Undefined is used
// (a comparison, arithmetic, int() or float(), a filter computing with it).
func (v *Value) UndefinedError() *Value {
	msg := v.UndefinedHint
	if msg == "" {
		msg = "an undefined value was used"
	}
	// no ": " in the message: the renderer shows the text after the last
	return AsValue(errors.Errorf("UndefinedError as in Jinja2 (%s)", msg))
}

// undefinedOperand is an operation on Jinja2's Undefined: == and != compare
// it (equal to an Undefined only: Undefined == None is False), any other
// operator raises as Jinja2's Undefined does; nil when neither operand is
// Undefined.
func undefinedOperand(op string, left, right *Value) *Value {
	if !left.Undefined && !right.Undefined {
		return nil
	}
	switch op {
	case "==":
		return AsValue(left.Undefined && right.Undefined)
	case "!=":
		return AsValue(!(left.Undefined && right.Undefined))
	}
	if left.Undefined {
		return left.UndefinedError()
	}
	return right.UndefinedError()
}
