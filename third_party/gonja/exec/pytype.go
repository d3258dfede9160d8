package exec

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/pkg/errors"
)

// PyTypeName (docket) is the name Python's messages give v's type:
// type(v).__name__ as a TypeError prints it (str, int, float, bool,
// NoneType, list, tuple, dict, decimal.Decimal, a host value's own name
// through PyTypeNamer; the Go type of any other host value). It is the
// one place the fork and the runner name a value's type (the runner's
// pyTypeOf, pyNumberOp's and the % formatter's messages each had their
// own, and they disagreed: a bool was "int" in one and "object" in
// another).
func PyTypeName(v *Value) string {
	if v.IsNil() {
		return "NoneType"
	}
	if n, ok := v.Interface().(PyTypeNamer); ok {
		return n.PyTypeName()
	}
	if n, ok := v.Interface().(PyClassNamer); ok {
		return n.PyClassName()
	}
	switch v.Interface().(type) {
	case Decimal:
		return "decimal.Decimal"
	case *big.Int:
		return "int"
	}
	switch {
	case v.IsString():
		return "str"
	case v.IsBool():
		return "bool"
	case v.IsInteger():
		return "int"
	case v.IsFloat():
		return "float"
	case isTuple(v):
		return "tuple"
	case v.IsList():
		return "list"
	case v.IsDict():
		return "dict"
	}
	return fmt.Sprintf("%T", v.Interface())
}

// PyClassNamer (docket) is a sized host value that names its Python
// class for Python's messages (agate's Table, Row, Column); unlike a
// PyTypeNamer it is no number-like value len() refuses.
type PyClassNamer interface {
	PyClassName() string
}

// PyItemser (docket) is a host mapping that is no Go map (agate's Row):
// its items() pairs, for dictsort and Items.
type PyItemser interface {
	PyItems() []*Pair
}

// PyContainer (docket) is a host value with Python's `in` of its own
// (agate's Row and Column test their values, as MappedSequence does).
type PyContainer interface {
	PyContains(item *Value) bool
}

// pyIn is Python's `item in container`: a string holds a string only, a
// number, None, a bool or a host value naming its type (a datetime)
// holds nothing (TypeError: it is not iterable); a list, a tuple, a dict
// (its keys) as gonja's Contains. docket gave False for `'a' in 5`,
// `'a' in none` and `1 in 'abc'`, where Python raises.
func pyIn(item, container *Value) *Value {
	if c, ok := container.Interface().(PyContainer); ok {
		return AsValue(c.PyContains(item))
	}
	if container.IsString() {
		if !item.IsString() {
			return AsValue(errors.Errorf("TypeError as in Python ('in <string>' requires string as left operand, not %s)", PyTypeName(item)))
		}
		return AsValue(strings.Contains(container.String(), item.String()))
	}
	if _, unsized := PyUnsized(container); unsized || container.IsNil() {
		return AsValue(errors.Errorf("TypeError as in Python (argument of type '%s' is not iterable)", PyTypeName(container)))
	}
	return AsValue(container.Contains(item))
}

// pyArithmetic are the operators pyOperandTypes checks.
var pyArithmetic = map[string]bool{"+": true, "-": true, "*": true, "/": true, "//": true, "**": true}

// pyOperandTypes is Python's TypeError for an arithmetic operator whose
// operands Python does not combine (nil when it does: numbers and bools;
// + of two strings or two sequences; * of a sequence or a string and an
// int). gonja made something of any pair: run_started_at +
// run_started_at was 0, 1 + 'a' was "1a", a date + 'x' concatenated.
// Decimals, big ints and host operands (a query's dates) were computed
// or refused before this (pyNumberOp); % formats a string (PyModulo).
func pyOperandTypes(op string, left, right *Value) *Value {
	if !pyArithmetic[op] {
		return nil
	}
	num := func(v *Value) bool { return v.IsNumber() || v.IsBool() }
	seq := func(v *Value) bool { return v.IsString() || v.IsList() }
	switch {
	case num(left) && num(right):
		return nil
	case op == "+" && (left.IsString() && right.IsString() || left.IsList() && right.IsList()):
		return nil // two lists, or a list and a tuple: concatSequences
	case op == "*" && (seq(left) && right.IsInteger() || left.IsInteger() && seq(right)):
		return nil
	case op == "+" && left.IsString():
		return AsValue(errors.Errorf(`TypeError as in Python (can only concatenate str (not "%s") to str)`, PyTypeName(right)))
	case op == "+" && left.IsList():
		return AsValue(errors.Errorf(`TypeError as in Python (can only concatenate %s (not "%s") to %s)`, PyTypeName(left), PyTypeName(right), PyTypeName(left)))
	case op == "*" && (seq(left) || seq(right)):
		other := right
		if seq(right) && !seq(left) {
			other = left
		}
		return AsValue(errors.Errorf("TypeError as in Python (can't multiply sequence by non-int of type '%s')", PyTypeName(other)))
	}
	// no ": " in the message: the renderer shows the text after the last
	return AsValue(errors.Errorf("TypeError as in Python (unsupported operand type(s) for %s '%s' and '%s')", op, PyTypeName(left), PyTypeName(right)))
}

// PyAddStep is Python's total + v, the sum filter's step: numbers add
// (a Decimal, a big int exactly, a bool as 0 or 1), a host operand
// computes or refuses it, any other pair is Python's TypeError.
func PyAddStep(total, v *Value) *Value {
	if r, ok := pyNumberOp("+", total, v); ok {
		return r
	}
	if err := pyOperandTypes("+", total, v); err != nil {
		return err
	}
	return PyAdd(boolAsInt(total), boolAsInt(v))
}

// pyPlainArithmetic is op of two ints, floats or bools as Python computes
// it (false for any other operands): 2 ** 3 is 8 (gonja: 8.0), 7 // -2
// is -4 (-3), 1 / 0 a ZeroDivisionError (+Inf), True + 1 is 2.
func pyPlainArithmetic(op string, left, right *Value) (*Value, bool) {
	left, right = boolAsInt(left), boolAsInt(right)
	if !pyArithmetic[op] || !left.IsNumber() || !right.IsNumber() {
		return nil, false
	}
	if left.IsInteger() && right.IsInteger() {
		return intOp(op, big.NewInt(int64(left.Integer())), big.NewInt(int64(right.Integer())))
	}
	return floatOp(op, left.Float(), right.Float())
}

// boolAsInt is a bool as Python's arithmetic takes it: 0 or 1.
func boolAsInt(v *Value) *Value {
	if v.IsBool() {
		if v.Bool() {
			return AsValue(1)
		}
		return AsValue(0)
	}
	return v
}

// PySlicer (docket) is a value whose slice is its Python type's own:
// range(5)[1:] is range(1, 5), an agate Row's or Column's slice a tuple.
// start and stop are Python's bounds for its length (slice.indices), step
// is not 0.
type PySlicer interface {
	PySlice(start, stop, step int) any
}

// PyFormatter (docket) is a value with Python's __format__ of its own:
// format(date, '%Y') is strftime; an empty spec is str().
type PyFormatter interface {
	PyFormat(spec string) (string, error)
}
