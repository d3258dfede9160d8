package render

import (
	"fmt"
	"sort"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// pyListMethods adds Python's list methods gonja lacks (index, count, pop,
// insert, remove, clear, sort), with Python's errors. A list a name holds
// changes in place; a literal's change is a temporary's, as in Python
// (its pop still returns the item). gonja had none of them: each was
// "not a method docket provides".
func pyListMethods(m map[string]exec.Method[[]any]) {
	m["index"] = func(self []any, _ *exec.Value, a *exec.VarArgs) (any, error) {
		x, start, end, err := listSearchArgs("index", self, a)
		if err != nil {
			return nil, err
		}
		for i := start; i < end; i++ {
			if exec.ToValue(self[i]).EqualValueTo(x) {
				return i, nil
			}
		}
		return nil, fmt.Errorf("ValueError: %s is not in list", exec.PyRepr(x))
	}
	m["count"] = func(self []any, _ *exec.Value, a *exec.VarArgs) (any, error) {
		if len(a.Args) != 1 || len(a.KwArgs) > 0 {
			return nil, fmt.Errorf("TypeError: list.count() takes exactly one argument (%d given)", len(a.Args)+len(a.KwArgs))
		}
		n := 0
		for _, e := range self {
			if exec.ToValue(e).EqualValueTo(a.Args[0]) {
				n++
			}
		}
		return n, nil
	}
	m["pop"] = func(self []any, selfValue *exec.Value, a *exec.VarArgs) (any, error) {
		if len(a.Args) > 1 || len(a.KwArgs) > 0 {
			return nil, fmt.Errorf("TypeError: pop expected at most 1 argument, got %d", len(a.Args)+len(a.KwArgs))
		}
		if len(self) == 0 {
			return nil, fmt.Errorf("IndexError: pop from empty list")
		}
		i := len(self) - 1
		if len(a.Args) == 1 {
			if !a.Args[0].IsInteger() {
				return nil, fmt.Errorf("TypeError: '%s' object cannot be interpreted as an integer", exec.PyTypeName(a.Args[0]))
			}
			i = a.Args[0].Integer()
			if i < 0 {
				i += len(self)
			}
			if i < 0 || i >= len(self) {
				return nil, fmt.Errorf("IndexError: pop index out of range")
			}
		}
		item := self[i]
		listInPlace(selfValue, func(l []any) []any { return append(l[:i:i], l[i+1:]...) })
		return item, nil
	}
	m["insert"] = func(self []any, selfValue *exec.Value, a *exec.VarArgs) (any, error) {
		if len(a.Args) != 2 || len(a.KwArgs) > 0 {
			return nil, fmt.Errorf("TypeError: insert expected 2 arguments, got %d", len(a.Args)+len(a.KwArgs))
		}
		if !a.Args[0].IsInteger() {
			return nil, fmt.Errorf("TypeError: '%s' object cannot be interpreted as an integer", exec.PyTypeName(a.Args[0]))
		}
		listInPlace(selfValue, func(l []any) []any {
			i := a.Args[0].Integer()
			if i < 0 {
				i += len(l)
			}
			i = max(0, min(i, len(l)))
			out := append(append(append([]any(nil), l[:i]...), a.Args[1].Interface()), l[i:]...)
			return out
		})
		return nil, nil
	}
	m["remove"] = func(self []any, selfValue *exec.Value, a *exec.VarArgs) (any, error) {
		if len(a.Args) != 1 || len(a.KwArgs) > 0 {
			return nil, fmt.Errorf("TypeError: list.remove() takes exactly one argument (%d given)", len(a.Args)+len(a.KwArgs))
		}
		for i, e := range self {
			if exec.ToValue(e).EqualValueTo(a.Args[0]) {
				listInPlace(selfValue, func(l []any) []any { return append(l[:i:i], l[i+1:]...) })
				return nil, nil
			}
		}
		return nil, fmt.Errorf("ValueError: list.remove(x): x not in list")
	}
	m["clear"] = func(_ []any, selfValue *exec.Value, a *exec.VarArgs) (any, error) {
		if len(a.Args)+len(a.KwArgs) > 0 {
			return nil, fmt.Errorf("TypeError: list.clear() takes no arguments (%d given)", len(a.Args)+len(a.KwArgs))
		}
		listInPlace(selfValue, func(l []any) []any { return l[:0] })
		return nil, nil
	}
	m["sort"] = func(self []any, selfValue *exec.Value, a *exec.VarArgs) (any, error) {
		reverse := false
		if len(a.Args) > 0 {
			return nil, fmt.Errorf("TypeError: sort() takes no positional arguments")
		}
		for k, v := range a.KwArgs {
			if k != "reverse" {
				return nil, fmt.Errorf("TypeError: '%s' is an invalid keyword argument for sort()", k)
			}
			reverse = v.IsTrue()
		}
		sorted := append([]any(nil), self...)
		var bad error
		sort.SliceStable(sorted, func(i, j int) bool {
			x, y := exec.ToValue(sorted[i]), exec.ToValue(sorted[j])
			if reverse {
				x, y = y, x
			}
			less, err := pyLess(x, y)
			if err != nil && bad == nil {
				bad = err
			}
			return less
		})
		if bad != nil {
			return nil, bad
		}
		listInPlace(selfValue, func(l []any) []any { return append(l[:0], sorted...) })
		return nil, nil
	}
}

// listSearchArgs reads index()'s x[, start[, end]], Python's way (negative
// bounds from the end, clamped).
func listSearchArgs(name string, self []any, a *exec.VarArgs) (*exec.Value, int, int, error) {
	if len(a.Args) < 1 || len(a.Args) > 3 || len(a.KwArgs) > 0 {
		return nil, 0, 0, fmt.Errorf("TypeError: %s expected at least 1 argument, got %d", name, len(a.Args)+len(a.KwArgs))
	}
	bound := func(i int, dflt int) (int, error) {
		if i >= len(a.Args) || a.Args[i].IsNil() {
			return dflt, nil
		}
		if !a.Args[i].IsInteger() {
			return 0, fmt.Errorf("TypeError: slice indices must be integers or have an __index__ method")
		}
		n := a.Args[i].Integer()
		if n < 0 {
			n += len(self)
		}
		return max(0, min(n, len(self))), nil
	}
	start, err := bound(1, 0)
	if err != nil {
		return nil, 0, 0, err
	}
	end, err := bound(2, len(self))
	if err != nil {
		return nil, 0, 0, err
	}
	return a.Args[0], start, end, nil
}

// pyLess is Python's a < b for what list.sort compares: numbers (Decimal
// and big ints too) by value, strings by code point, booleans as 0 and 1;
// other mixes are Python's TypeError.
func pyLess(a, b *exec.Value) (bool, error) {
	if less, ok := exec.PyLess(a, b); ok {
		return less, nil
	}
	switch {
	case a.IsNumber() && b.IsNumber():
		return a.Float() < b.Float(), nil
	case a.IsString() && b.IsString():
		return a.String() < b.String(), nil
	}
	return false, fmt.Errorf("TypeError: '<' not supported between instances of '%s' and '%s'", exec.PyTypeName(a), exec.PyTypeName(b))
}
