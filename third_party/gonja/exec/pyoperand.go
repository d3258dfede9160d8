package exec

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
