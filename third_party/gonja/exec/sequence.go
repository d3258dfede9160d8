package exec

import "fmt"

// docket: + and * on sequences as Python's. gonja concatenated any two
// lists into a list (a tuple plus a tuple lost its tupleness) and read a
// list times an integer as 0 * n, so [0] * 3 rendered 0 without a word.

// items is a list's or tuple's elements as values.
func items(v *Value) []*Value {
	r := v.getResolvedValue()
	out := make([]*Value, r.Len())
	for i := range out {
		out[i] = ToValue(r.Index(i))
	}
	return out
}

// isTuple reports whether v holds a Python tuple (a tuple literal,
// agate's Column.values()); false for None.
func isTuple(v *Value) bool {
	r := v.getResolvedValue()
	if !r.IsValid() || !r.CanInterface() {
		return false
	}
	_, ok := r.Interface().(Tuple)
	return ok
}

// sequenceOf is vals as a tuple when tuple is set, else as a list.
func sequenceOf(vals []*Value, tuple bool) *Value {
	if tuple {
		return AsValue(Tuple(vals))
	}
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v.Interface()
	}
	return AsValue(out)
}

// concatSequences is left + right for two lists or two tuples; a list
// and a tuple is Python's TypeError (gonja made it a list).
func concatSequences(left, right *Value) *Value {
	if l, r := isTuple(left), isTuple(right); l != r {
		name := map[bool]string{true: "tuple", false: "list"}
		return AsValue(fmt.Errorf(`TypeError as in Python (can only concatenate %s (not "%s") to %s)`, name[l], name[r], name[l]))
	}
	return sequenceOf(append(items(left), items(right)...), isTuple(left))
}

// repeatSequence is seq * n: seq's elements n times over (none for n <= 0).
func repeatSequence(seq *Value, n int) *Value {
	one := items(seq)
	var all []*Value
	for ; n > 0; n-- {
		all = append(all, one...)
	}
	return sequenceOf(all, isTuple(seq))
}
