package methods

import (
	"sort"

	"github.com/pkg/errors"

	"github.com/nikolalohinski/gonja/v2/exec"
)

var dictMethods = exec.NewMethodSet[map[string]any](map[string]exec.Method[map[string]any]{
	"keys": func(self map[string]any, selfValue *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		keys := dictKeys(self, selfValue)
		return keys, nil
	},

	"values": func(self map[string]any, selfValue *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		keys := dictKeys(self, selfValue)
		values := make([]any, 0, len(keys))
		for _, key := range keys {
			values = append(values, dictValue(self, selfValue, key))
		}
		return values, nil
	},

	"items": func(self map[string]any, selfValue *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		keys := dictKeys(self, selfValue)
		items := make([]any, 0, len(keys))
		for _, key := range keys {
			items = append(items, exec.Tuple{exec.AsValue(key), exec.AsValue(dictValue(self, selfValue, key))}) // docket: Python's (key, value) tuples
		}
		return items, nil
	},

	"get": func(self map[string]any, selfValue *exec.Value, arguments *exec.VarArgs) (any, error) {
		if len(arguments.Args) < 1 || len(arguments.Args) > 2 {
			return nil, exec.ErrInvalidCall(errors.New("get() takes 1 or 2 positional arguments"))
		}
		key := arguments.Args[0].String()
		if _, ok := self[key]; ok {
			return dictValue(self, selfValue, key), nil
		}
		if len(arguments.Args) == 2 {
			return arguments.Args[1].Interface(), nil
		}
		return nil, nil
	},

	"pop": func(self map[string]any, selfValue *exec.Value, arguments *exec.VarArgs) (any, error) {
		if len(arguments.Args) < 1 || len(arguments.Args) > 2 {
			return nil, exec.ErrInvalidCall(errors.New("pop() takes 1 or 2 positional arguments"))
		}
		key := arguments.Args[0].String()
		if _, ok := self[key]; ok {
			val := dictValue(self, selfValue, key)
			delete(self, key)
			return val, nil
		}
		if len(arguments.Args) == 2 {
			return arguments.Args[1].Interface(), nil
		}
		return nil, nil
	},

	"setdefault": func(self map[string]any, selfValue *exec.Value, arguments *exec.VarArgs) (any, error) {
		if len(arguments.Args) < 1 || len(arguments.Args) > 2 {
			return nil, exec.ErrInvalidCall(errors.New("setdefault() takes 1 or 2 positional arguments"))
		}
		key := arguments.Args[0].String()
		if _, ok := self[key]; ok {
			return dictValue(self, selfValue, key), nil
		}
		var def any
		if len(arguments.Args) == 2 {
			def = arguments.Args[1].Interface()
		}
		self[key] = def
		return def, nil
	},

	"update": func(self map[string]any, selfValue *exec.Value, arguments *exec.VarArgs) (any, error) {
		if len(arguments.Args) > 1 {
			return nil, exec.ErrInvalidCall(errors.New("update() takes at most 1 positional argument"))
		}
		if len(arguments.Args) == 1 {
			arg := arguments.Args[0]
			arg.Iterate(func(_, _ int, k, v *exec.Value) bool {
				if v != nil {
					self[k.String()] = v.Interface()
				}
				return true
			}, func() {})
		}
		for k, v := range arguments.KwArgs {
			self[k] = v.Interface()
		}
		return nil, nil
	},

	"copy": func(self map[string]any, selfValue *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		if d, ok := selfValue.Interface().(*exec.Dict); ok { // docket: a dict's copy keeps its order
			clone := exec.NewDict()
			for _, p := range d.Pairs {
				clone.Pairs = append(clone.Pairs, &exec.Pair{Key: p.Key, Value: p.Value})
			}
			return clone, nil
		}
		clone := make(map[string]any, len(self))
		for k, v := range self {
			clone[k] = v
		}
		return clone, nil
	},

	"clear": func(self map[string]any, selfValue *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		for k := range self {
			delete(self, k)
		}
		return nil, nil
	},
})

// dictValue (docket) is key's value as the dict holds it: a *exec.Dict's
// own (a nested dict keeps its order), not self's, converted to Go (a Go
// map, which sorts). Upstream gave the converted value: {'b': {'y': 1,
// 'a': 2}}.values() printed [{'a': 2, 'y': 1}]; so did a dict held in a Go
// map (graph.nodes.values(), each node's meta sorted).
func dictValue(self map[string]any, selfValue *exec.Value, key string) any {
	if d, ok := selfValue.Interface().(*exec.Dict); ok {
		for _, p := range d.Pairs {
			if p.Key.String() == key {
				return p.Value.Interface()
			}
		}
	}
	if m, ok := selfValue.Interface().(map[string]any); ok {
		if v, in := m[key]; in {
			return v // the map's own value: a dict in it keeps its order (the graph's meta)
		}
	}
	return self[key]
}

// dictKeys (docket) is self's keys in the dict's insertion order, as
// Python's dict keeps it (a *exec.Dict's pairs); a Go map, which keeps
// none, gives them sorted. Upstream sorted every dict's keys:
// {'b': 1, 'a': 2}.keys() was ['a', 'b'].
func dictKeys(self map[string]any, selfValue *exec.Value) []string {
	keys := make([]string, 0, len(self))
	if d, ok := selfValue.Interface().(*exec.Dict); ok {
		seen := map[string]bool{}
		for _, p := range d.Pairs {
			k := p.Key.String()
			if _, in := self[k]; in && !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
		if len(keys) == len(self) {
			return keys
		}
		keys = keys[:0]
	}
	for key := range self {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}
