package exec

// docket: Python's printf-style formatting ('%02d' % i, the format filter)
// and Python's modulo, which Jinja2 gives the % operator. Written here
// because no Go library formats Python's % mini-language (fmt's verbs
// differ: %s of an int is "%!s(int=1)", %g's default precision, %(name)s
// mappings, %r).

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// PyModulo is Jinja2's left % right: printf-style formatting when left is
// a string (tuple: right is a tuple literal, its items the arguments),
// else Python's modulo (floored: the result has the divisor's sign; a
// float operand gives a float).
func PyModulo(left, right *Value, tuple bool) *Value {
	if left.IsString() {
		out, err := PyPercentFormat(left.String(), right, tuple)
		if err != nil {
			return AsValue(err)
		}
		return AsValue(out)
	}
	if left.IsFloat() || right.IsFloat() {
		b := right.Float()
		if b == 0 {
			return AsValue(fmt.Errorf("float modulo"))
		}
		r := math.Mod(left.Float(), b)
		if r != 0 && (r < 0) != (b < 0) {
			r += b
		}
		return AsValue(r)
	}
	b := right.Integer()
	if b == 0 {
		return AsValue(fmt.Errorf("integer modulo by zero"))
	}
	r := left.Integer() % b
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return AsValue(r)
}

// pySpec is one conversion of a format string.
type pySpec struct {
	key       string // %(key)s
	hasKey    bool
	flags     string
	width     string // digits or "*"
	precision string // digits or "*", without the dot
	hasPrec   bool
	conv      byte
}

// pyPiece is literal text (spec nil) or one conversion of a format.
type pyPiece struct {
	lit  string
	spec *pySpec
}

// parsePyFormat splits format into literal text and conversions.
func parsePyFormat(format string) ([]pyPiece, error) {
	var out []pyPiece
	var lit strings.Builder
	for i := 0; i < len(format); {
		c := format[i]
		if c != '%' {
			lit.WriteByte(c)
			i++
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			lit.WriteByte('%')
			i++
			continue
		}
		out = append(out, pyPiece{lit: lit.String()})
		lit.Reset()
		s := &pySpec{}
		if i < len(format) && format[i] == '(' {
			end := strings.IndexByte(format[i:], ')')
			if end < 0 {
				return nil, fmt.Errorf("incomplete format key")
			}
			s.key, s.hasKey = format[i+1:i+end], true
			i += end + 1
		}
		for i < len(format) && strings.IndexByte("#0- +", format[i]) >= 0 {
			s.flags += string(format[i])
			i++
		}
		for i < len(format) && (format[i] == '*' || (format[i] >= '0' && format[i] <= '9')) {
			s.width += string(format[i])
			i++
		}
		if i < len(format) && format[i] == '.' {
			s.hasPrec = true
			i++
			for i < len(format) && (format[i] == '*' || (format[i] >= '0' && format[i] <= '9')) {
				s.precision += string(format[i])
				i++
			}
		}
		for i < len(format) && strings.IndexByte("hlL", format[i]) >= 0 {
			i++ // length modifiers: ignored, as Python does
		}
		if i >= len(format) {
			return nil, fmt.Errorf("incomplete format")
		}
		s.conv = format[i]
		if strings.IndexByte("diouxXeEfFgGcrsa", s.conv) < 0 {
			return nil, fmt.Errorf("unsupported format character '%c' (0x%x) at index %d", s.conv, s.conv, i)
		}
		i++
		out = append(out, pyPiece{spec: s})
	}
	return append(out, pyPiece{lit: lit.String()}), nil
}

// PyPercentFormat is Python's format % args: args a tuple (tuple true: a
// tuple literal; else a list whose length is the number of conversions,
// as a Jinja tuple held in a variable is a list here), a mapping for
// %(key)s, or one value.
func PyPercentFormat(format string, args *Value, tuple bool) (string, error) {
	pieces, err := parsePyFormat(format)
	if err != nil {
		return "", err
	}
	n, keyed := 0, false
	for _, p := range pieces {
		if s := p.spec; s != nil {
			n++
			keyed = keyed || s.hasKey
			if s.width == "*" {
				n++
			}
			if s.precision == "*" {
				n++
			}
		}
	}
	var list []*Value
	switch {
	case keyed:
		if !args.IsDict() {
			return "", fmt.Errorf("format requires a mapping")
		}
	case args.IsList() && (tuple || args.Len() == n || n != 1):
		for i := 0; i < args.Len(); i++ {
			list = append(list, args.Index(i))
		}
	default:
		list = []*Value{args}
	}
	next := 0
	take := func() (*Value, error) {
		if next >= len(list) {
			return nil, fmt.Errorf("not enough arguments for format string")
		}
		next++
		return list[next-1], nil
	}
	var out strings.Builder
	for _, p := range pieces {
		s := p.spec
		if s == nil {
			out.WriteString(p.lit)
			continue
		}
		if s.width == "*" {
			w, err := take()
			if err != nil {
				return "", err
			}
			s.width = strconv.Itoa(w.Integer())
		}
		if s.precision == "*" {
			p, err := take()
			if err != nil {
				return "", err
			}
			s.precision = strconv.Itoa(p.Integer())
		}
		var v *Value
		if s.hasKey {
			got, ok := args.GetItem(s.key)
			if !ok {
				return "", fmt.Errorf("KeyError: '%s'", s.key)
			}
			v = got
		} else if v, err = take(); err != nil {
			return "", err
		}
		text, err := pyConvert(s, v)
		if err != nil {
			return "", err
		}
		out.WriteString(text)
	}
	if !keyed && next < len(list) {
		return "", fmt.Errorf("not all arguments converted during string formatting")
	}
	return out.String(), nil
}

// pyConvert formats one value as spec s asks.
func pyConvert(s *pySpec, v *Value) (string, error) {
	verb := "%" + s.flags + s.width
	if s.hasPrec {
		verb += "." + s.precision
	}
	pyType := func() string { return PyTypeName(v) }
	number := v.IsNumber() || v.IsBool() || isBigNumber(v) // docket: a Decimal, a big int
	integer := func() int {                                // Python's int(v): True is 1
		if v.IsBool() {
			if v.Bool() {
				return 1
			}
			return 0
		}
		if v.IsFloat() {
			return int(math.Trunc(v.Float()))
		}
		return v.Integer()
	}
	// pad places text in the field as Python does (- left-justifies)
	pad := func(text string) string {
		w, _ := strconv.Atoi(s.width)
		if n := len([]rune(text)); n < w {
			if strings.Contains(s.flags, "-") {
				return text + strings.Repeat(" ", w-n)
			}
			return strings.Repeat(" ", w-n) + text
		}
		return text
	}
	switch s.conv {
	case 's', 'r', 'a':
		text := v.String()
		if v.IsNil() {
			text = "None"
		}
		if s.conv != 's' {
			text = PyRepr(v) // a string quoted, a date datetime.date(...), a Decimal Decimal('1.50')
		}
		if s.hasPrec {
			if p, _ := strconv.Atoi(s.precision); p < len([]rune(text)) {
				text = string([]rune(text)[:p])
			}
		}
		return pad(text), nil
	case 'd', 'i', 'u':
		if !number {
			return "", fmt.Errorf("%%%c format: a real number is required, not %s", s.conv, pyType())
		}
		if r, ok := PyNumberFilter("int", v, 0); ok && isBigNumber(r) {
			return pad(r.String()), nil // an int past int64, exactly
		}
		if r, ok := PyNumberFilter("int", v, 0); ok {
			return fmt.Sprintf(verb+"d", r.Integer()), nil
		}
		return fmt.Sprintf(verb+"d", integer()), nil // Go's precision is Python's minimum digits
	case 'o', 'x', 'X':
		if !v.IsInteger() && !v.IsBool() {
			return "", fmt.Errorf("%%%c format: an integer is required, not %s", s.conv, pyType())
		}
		if s.conv == 'o' && strings.Contains(s.flags, "#") {
			// Python writes 0o10 (Go 010): format the digits, then pad
			n := integer()
			sign := ""
			if n < 0 {
				sign, n = "-", -n
			} else if strings.Contains(s.flags, "+") {
				sign = "+"
			}
			digits := strconv.FormatInt(int64(n), 8)
			if p, _ := strconv.Atoi(s.precision); len(digits) < p {
				digits = strings.Repeat("0", p-len(digits)) + digits
			}
			text := sign + "0o" + digits
			if w, _ := strconv.Atoi(s.width); strings.Contains(s.flags, "0") && !strings.Contains(s.flags, "-") && len(text) < w {
				text = sign + "0o" + strings.Repeat("0", w-len(text)) + digits
			}
			return pad(text), nil
		}
		return fmt.Sprintf(verb+string(s.conv), integer()), nil
	case 'e', 'E', 'f', 'F', 'g', 'G':
		if !number {
			return "", fmt.Errorf("must be real number, not %s", pyType())
		}
		f := v.Float()
		if v.IsBool() {
			f = float64(integer())
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			text := "inf"
			switch {
			case math.IsNaN(f):
				text = "nan"
			case f < 0:
				text = "-inf"
			case strings.Contains(s.flags, "+"):
				text = "+inf"
			case strings.Contains(s.flags, " "):
				text = " inf"
			}
			if s.conv == 'E' || s.conv == 'F' || s.conv == 'G' {
				text = strings.ToUpper(text)
			}
			return pad(text), nil
		}
		if !s.hasPrec {
			verb += ".6" // Python's default precision (Go's %g takes the shortest)
		}
		return fmt.Sprintf(verb+string(s.conv), f), nil
	case 'c':
		switch {
		case v.IsString() && len([]rune(v.String())) == 1:
			return pad(v.String()), nil
		case v.IsInteger():
			return pad(string(rune(v.Integer()))), nil
		}
		return "", fmt.Errorf("%%c requires int or char")
	}
	return "", fmt.Errorf("unsupported format character '%c'", s.conv)
}

// pyRepr is Python's repr of a string: single quotes, or double quotes
// when the text holds a single quote and no double quote.
func pyRepr(text string) string {
	q := "'"
	if strings.Contains(text, "'") && !strings.Contains(text, `"`) {
		q = `"`
	}
	text = strings.ReplaceAll(text, `\`, `\\`)
	if q == "'" {
		text = strings.ReplaceAll(text, "'", `\'`)
	}
	text = strings.NewReplacer("\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(text)
	return q + text + q
}
