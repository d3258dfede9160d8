package exec

// PyReprer (docket) is a host value with its own Python repr(): a date
// is datetime.date(2024, 1, 2) inside a printed list, where its str() is
// 2024-01-02.
type PyReprer interface {
	PyRepr() string
}

// PyRepr (docket) is Python's repr() of v, as a printed list, tuple or
// dict shows each of its items: a string quoted and escaped as Python
// quotes it ("it's", 'a\n'), None, a host value's own repr (PyReprer),
// anything else its str(). Upstream wrapped a string in '...' as it was
// ('it's') and printed a date as its str().
func PyRepr(v *Value) string {
	if v.IsNil() {
		if v.Undefined {
			return ""
		}
		return "None"
	}
	if r, ok := v.Interface().(PyReprer); ok {
		return r.PyRepr()
	}
	if v.IsString() {
		return pyRepr(v.String())
	}
	return v.String()
}

// PyRepr is Python's repr of a Decimal: Decimal('1.50').
func (d Decimal) PyRepr() string { return "Decimal('" + d.String() + "')" }
