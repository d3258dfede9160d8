package methods

import (
	"strconv"
	"strings"

	"github.com/nikolalohinski/gonja/v2/builtins/methods/pystring"
	"github.com/nikolalohinski/gonja/v2/exec"
)

// formatArg (docket) is an argument of str.format as pystring formats it:
// a string, number or bool as it is; any other value as Python's
// format(value, spec) gives it (pyFormatArg). pystring knows Go's basic
// kinds only: '{a}'.format(a=dec) failed naming a Go type
// ("exec.Decimal"), and so did a date, None, a list or a dict.
func formatArg(v *exec.Value) any {
	switch v.Interface().(type) {
	case string, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return v.Interface()
	}
	return pyFormatArg{v}
}

// pyFormatArg is a value's __format__: with no spec its str(); a Decimal
// with a spec as the number (Decimal's own format); a value with a
// __format__ of its own (a date's strftime) through exec.PyFormatter; any
// other with a spec is Python's TypeError.
type pyFormatArg struct{ v *exec.Value }

func (a pyFormatArg) Format(spec string) (string, error) {
	if f, ok := a.v.Interface().(exec.PyFormatter); ok {
		return f.PyFormat(spec)
	}
	if spec == "" {
		if a.v.IsNil() {
			return "None", nil
		}
		return a.v.String(), nil
	}
	if d, ok := a.v.Interface().(exec.Decimal); ok {
		// no precision and no number type: Decimal keeps its digits
		// ('{:>8}'.format(Decimal('1.50')) is '    1.50')
		if !strings.Contains(spec, ".") && !strings.ContainsAny(spec[len(spec)-1:], "eEfFgGn%") {
			if s, err := pystring.PyString("{:"+spec+"}").Format([]any{d.String()}, nil); err == nil {
				return string(s), nil
			}
		}
		f, err := strconv.ParseFloat(d.String(), 64)
		if err == nil {
			s, err := pystring.PyString("{:"+spec+"}").Format([]any{f}, nil)
			return string(s), err
		}
	}
	return "", &exec.PyTypeError{Msg: "unsupported format string passed to " + exec.PyTypeName(a.v) + ".__format__"}
}

// Get is pystring.AttributeGetter: a field's path past its name,
// '{a[0]}', '{a[x]}' or '{a.x}' (pystring reads each as a.0 / a.x): an
// item, else an attribute. Without it a list's or dict's field failed
// with reflect's "cannot return value obtained from unexported field".
func (a pyFormatArg) Get(key string) (any, bool) {
	if i, err := strconv.Atoi(key); err == nil && a.v.IsList() {
		if i < 0 || i >= a.v.Len() {
			return nil, false
		}
		return formatArg(a.v.Index(i)), true
	}
	if item, ok := a.v.GetItem(key); ok {
		return formatArg(item), true
	}
	if attr, ok := a.v.GetAttribute(key); ok {
		return formatArg(attr), true
	}
	return nil, false
}
