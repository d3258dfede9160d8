package methods

import (
	"fmt"
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
	case string, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
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
		if out, ok, err := formatFixed(d.Plain(), d.Float64(), spec); ok {
			return out, err
		}
		s, err := pystring.PyString("{:"+spec+"}").Format([]any{d.Float64()}, nil)
		return string(s), err
	}
	if b, ok := a.v.Interface().(bool); ok { // bool.__format__ is int's with a spec: '{:d}' of True is 1
		var n any = 0
		if b {
			n = 1
		}
		if strings.ContainsAny(spec[len(spec)-1:], "eEfFgG%") {
			n = float64(n.(int))
		}
		s, err := pystring.PyString("{:"+spec+"}").Format([]any{n}, nil)
		return string(s), err
	}
	if a.v.IsFloat() {
		x := a.v.Float()
		if out, ok, err := formatFixed(a.v.String(), x, spec); ok {
			return out, err
		}
		s, err := pystring.PyString("{:"+spec+"}").Format([]any{x}, nil)
		return string(s), err
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

// formatFixed is format(number, spec) for a spec of type f, F, % or
// none (Python's fixed-point forms), number given as its str() digits
// (plain: a Decimal's own digits, a float's repr) and as a float: with no
// precision a Decimal keeps its digits ('{:,}' of 1234567.5 is
// 1,234,567.5, '{:%}' of 1.50 is 150%) and a float is its str() ('{:>6}'
// of 1.0 is '   1.0'); with one, the float rounded to it. Sign, fill,
// alignment, width, zero padding and grouping as Python. Written here:
// pystring refuses ',' with 'f', reads '.0%' as no precision and groups
// no float without a type. ok is false for any other spec (pystring's)
// or a float str() in exponent form with no precision.
func formatFixed(plain string, x float64, spec string) (string, bool, error) {
	// pystring's parser refuses ',' with f or no type: the grouping is
	// taken out first (a ',' or '_' that is no fill before an alignment)
	from, grouping := 0, rune(0)
	if len(spec) > 1 && strings.ContainsRune("<>^=", rune(spec[1])) {
		from = 1
	}
	if i := strings.IndexAny(spec[min(from, len(spec)):], ",_"); i >= 0 {
		grouping = rune(spec[from+i])
		spec = spec[:from+i] + spec[from+i+1:]
	}
	f, err := pystring.NewFormatterSpecFromStr(spec)
	if err != nil {
		return "", true, err
	}
	f.GroupingOption = grouping
	typ := f.Type
	if typ != 0 && typ != 'f' && typ != 'F' && typ != '%' {
		return "", false, nil
	}
	digits := plain
	if strings.Contains(spec, ".") { // a precision
		if typ == '%' {
			x *= 100
		}
		digits = strconv.FormatFloat(x, 'f', int(f.Precision), 64)
	} else {
		if strings.ContainsAny(digits, "eEnN") { // 1e+20, nan, inf: pystring's
			return "", false, nil
		}
		if typ == '%' {
			digits = shiftPoint(digits, 2)
		}
	}
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	intPart, frac, _ := strings.Cut(digits, ".")
	if f.GroupingOption != 0 {
		var b strings.Builder
		for i, c := range intPart {
			if i > 0 && (len(intPart)-i)%3 == 0 {
				b.WriteRune(f.GroupingOption)
			}
			b.WriteRune(c)
		}
		intPart = b.String()
	}
	body := intPart
	if frac != "" {
		body += "." + frac
	}
	if typ == '%' {
		body += "%"
	}
	sign := ""
	switch {
	case neg:
		sign = "-"
	case f.Sign == '+':
		sign = "+"
	case f.Sign == ' ':
		sign = " "
	}
	fill, align := f.Fill, f.Align
	if f.ZeroPadding && align == 0 {
		fill, align = '0', '='
	}
	if fill == 0 {
		fill = ' '
	}
	pad := int(f.MinWidth) - len(sign) - len(body)
	if pad <= 0 {
		return sign + body, true, nil
	}
	fills := strings.Repeat(string(fill), pad)
	switch align {
	case '<':
		return sign + body + fills, true, nil
	case '^':
		return fills[:pad/2*len(string(fill))] + sign + body + fills[pad/2*len(string(fill)):], true, nil
	case '=':
		return sign + fills + body, true, nil
	}
	return fills + sign + body, true, nil
}

// shiftPoint is the decimal digits s (optionally signed) times 10^n.
func shiftPoint(s string, n int) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	frac += strings.Repeat("0", max(n-len(frac), 0))
	intPart, frac = intPart+frac[:n], frac[n:]
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	out := intPart
	if frac != "" {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out
}

func init() { pystring.Convert = convertFormatArg }

// convertFormatArg is a format field's conversion: !r repr(), !s str(),
// !a ascii() (repr with every character past ASCII escaped).
func convertFormatArg(value any, conv byte) (string, error) {
	var v *exec.Value
	if a, ok := value.(pyFormatArg); ok {
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
