package methods

import (
	"fmt"
	"math/big"
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
	return pyFormatArg{v}
}

// pyFormatArg is a value's __format__: with no spec its str(); a Decimal
// with a spec as the number (Decimal's own format); a value with a
// __format__ of its own (a date's strftime) through exec.PyFormatter; any
// other with a spec is Python's TypeError.
type pyFormatArg struct{ v *exec.Value }

func (a pyFormatArg) Format(spec string) (string, error) {
	if err, ok := a.v.Interface().(error); ok { // a field Get did not find
		return "", err
	}
	if f, ok := a.v.Interface().(exec.PyFormatter); ok {
		return f.PyFormat(spec)
	}
	if a.v.Undefined { // jinja2's Undefined: str() empty, no spec of its own
		if spec != "" {
			return "", &exec.PyTypeError{Msg: "unsupported format string passed to Undefined.__format__"}
		}
		return "", nil
	}
	if a.v.IsString() {
		return formatPyStr(a.v.String(), spec)
	}
	if spec == "" {
		if a.v.IsNil() {
			return "None", nil
		}
		return a.v.String(), nil
	}
	switch x := a.v.Interface().(type) {
	case exec.Decimal:
		return formatPyDecimal(x, spec)
	case bool: // bool.__format__ is int's with a spec: '{:d}' of True is 1
		n := int64(0)
		if x {
			n = 1
		}
		return formatPyInt(big.NewInt(n), spec)
	case *big.Int:
		return formatPyInt(x, spec)
	}
	if a.v.IsInteger() {
		return formatPyInt(big.NewInt(int64(a.v.Integer())), spec)
	}
	if a.v.IsFloat() {
		return formatPyFloat(a.v.Float(), a.v.String(), spec)
	}
	return "", &exec.PyTypeError{Msg: "unsupported format string passed to " + exec.PyTypeName(a.v) + ".__format__"}
}

// Get is pystring.AttributeGetter: a field's path past its name as dbt's
// sandboxed jinja2 reads it (SandboxedFormatter.get_field): '{a[k]}' is
// jinja's getitem (an item, a string's character, else for a name key
// the attribute), '{a.k}' its getattr (the attribute, else the item:
// '{a.b}' of a dict reads its key, as dbt; plain Python's str.format
// would raise AttributeError). What neither finds is an error naming it,
// as docket's strict undefined is for {{ a.k }} (dbt's Undefined would
// print nothing). Without it a list's or dict's field failed with
// reflect's "cannot return value obtained from unexported field", a
// string's with "not a sub-gettable", '{a[5]}' of a short list KeyError.
func (a pyFormatArg) Get(key string) (any, bool) {
	if a.v.IsError() {
		return a, true
	}
	var v *exec.Value
	found, what := false, ""
	if name, ok := strings.CutPrefix(key, pystring.AttrMark); ok {
		what = "attribute '" + name + "'"
		if v, found = a.v.GetAttribute(name); !found {
			v, found = a.v.GetItem(name)
		}
	} else {
		k := strings.TrimPrefix(key, pystring.ItemMark)
		what = "attribute '" + k + "'"
		if i, err := strconv.Atoi(k); err == nil && strings.Trim(k, "0123456789") == "" {
			what = fmt.Sprintf("element %d", i)
			v, found = itemAt(a.v, i)
		} else if v, found = a.v.GetItem(k); !found {
			v, found = a.v.GetAttribute(k)
		}
	}
	if !found || v.IsError() {
		return pyFormatArg{exec.AsValue(fmt.Errorf("UndefinedError: '%s object' has no %s", exec.PyTypeName(a.v), what))}, true
	}
	return formatArg(v), true
}

// itemAt is value[i] for an index i >= 0: a string's i-th character, a
// list's or tuple's item.
func itemAt(v *exec.Value, i int) (*exec.Value, bool) {
	if v.IsString() {
		r := []rune(v.String())
		if i >= len(r) {
			return nil, false
		}
		return exec.AsValue(string(r[i])), true
	}
	return v.GetItem(i)
}

func init() { pystring.Convert = convertFormatArg }

// convertFormatArg is a format field's conversion: !r repr(), !s str(),
// !a ascii() (repr with every character past ASCII escaped).
func convertFormatArg(value any, conv byte) (string, error) {
	var v *exec.Value
	if a, ok := value.(pyFormatArg); ok {
		if err, ok := a.v.Interface().(error); ok {
			return "", err
		}
		v = a.v
	} else {
		v = exec.AsValue(value)
	}
	switch conv {
	case 's':
		if v.IsNil() {
			return "None", nil
		}
		return v.String(), nil
	case 'a':
		var b strings.Builder
		for _, r := range exec.PyRepr(v) {
			switch {
			case r < 0x80:
				b.WriteRune(r)
			case r <= 0xff:
				fmt.Fprintf(&b, `\x%02x`, r)
			case r <= 0xffff:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		}
		return b.String(), nil
	}
	return exec.PyRepr(v), nil
}
