package exec

import "math/big"

// PyOperand (docket) is a host value with Python's binary operators of its
// own, such as a query's datetime.date: PyOp is op's result ("<", "==",
// "-", ... as pyOperators names them) with other on its right, or on its
// left when reflected; false leaves op to the rules that follow.
type PyOperand interface {
	PyOp(op string, other *Value, reflected bool) (*Value, bool)
}

// pyOperandOp is op of left and right when either is a PyOperand that
// computes it.
func pyOperandOp(op string, left, right *Value) (*Value, bool) {
	if o, ok := left.Interface().(PyOperand); ok {
		if r, ok := o.PyOp(op, right, false); ok {
			return r, true
		}
	}
	if o, ok := right.Interface().(PyOperand); ok {
		return o.PyOp(op, left, true)
	}
	return nil, false
}

func isPyOperand(v *Value) bool {
	_, ok := v.Interface().(PyOperand)
	return ok
}

// PyStrRepr (docket) is Python's repr of a string: 'text', or "text" when
// it holds a single quote and no double one.
func PyStrRepr(s string) string { return pyRepr(s) }

// PyTypeNamer (docket) is a host value that names its Python type (a
// query's datetime.date) for Python's messages.
type PyTypeNamer interface {
	PyTypeName() string
}

// PyUnsized (docket) is the Python type name of a value len(), iter() and
// reversed() refuse: a number (int, float, Decimal, a big int), a bool,
// or a host value naming its type (a datetime); false for any other (a
// string, a list, a dict, None, undefined).
func PyUnsized(v *Value) (string, bool) {
	if v.IsNil() {
		return "", false
	}
	if n, ok := v.Interface().(PyTypeNamer); ok {
		return n.PyTypeName(), true
	}
	switch v.Interface().(type) {
	case Decimal:
		return "decimal.Decimal", true
	case *big.Int:
		return "int", true
	}
	switch {
	case v.IsBool():
		return "bool", true
	case v.IsInteger():
		return "int", true
	case v.IsFloat():
		return "float", true
	}
	return "", false
}

// PyTypeError (docket) is Python's TypeError where a caller must tell it
// from other errors (dbt's tojson() returns its default on a ValueError
// only: a TypeError is raised).
type PyTypeError struct{ Msg string }

func (e *PyTypeError) Error() string { return "TypeError as in Python (" + e.Msg + ")" }
