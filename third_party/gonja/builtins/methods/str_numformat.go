package methods

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nikolalohinski/gonja/v2/builtins/methods/pyerrors"
)

// numSpec (docket) is Python's format-spec mini-language for a number:
// [[fill]align][sign][z][#][0][width][grouping][.precision][type].
// Written here, not through pystring: pystring refuses ',' or '_' with
// an int or a type, pads zeros without grouping them, gives a float with
// 'f' and no precision its shortest digits (Python: 6) and formats a
// Decimal through a float, losing its digits ('{:g}' of 1.50 was 1.5).
// No maintained Go library implements this mini-language; the layout
// (grouping of zero padding, sign placement) ports CPython's _pydecimal
// _format_number, which int and float formatting share.
type numSpec struct {
	fill      rune
	align     byte // 0 when not given
	sign      byte // 0, '+', '-' or ' '
	noNegZero bool // 'z'
	alt       bool // '#'
	zeropad   bool
	width     int
	grouping  byte // 0, ',' or '_'
	prec      int  // -1 when not given
	typ       byte // 0 when not given
}

func parseNumSpec(spec, typeName string) (numSpec, error) {
	sp := numSpec{prec: -1}
	bad := func() (numSpec, error) {
		return sp, fmt.Errorf("%w: Invalid format specifier '%s' for object of type '%s'", pyerrors.ErrValue, spec, typeName)
	}
	s := spec
	if r, n := utf8.DecodeRuneInString(s); n > 0 && len(s) > n && strings.IndexByte("<>=^", s[n]) >= 0 {
		sp.fill, sp.align, s = r, s[n], s[n+1:]
	} else if len(s) > 0 && strings.IndexByte("<>=^", s[0]) >= 0 {
		sp.align, s = s[0], s[1:]
	}
	if len(s) > 0 && strings.IndexByte("+- ", s[0]) >= 0 {
		sp.sign, s = s[0], s[1:]
	}
	if strings.HasPrefix(s, "z") {
		sp.noNegZero, s = true, s[1:]
	}
	if strings.HasPrefix(s, "#") {
		sp.alt, s = true, s[1:]
	}
	if strings.HasPrefix(s, "0") {
		sp.zeropad, s = true, s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 {
		var err error
		// Python's words when the number overflows (docket took
		// Atoi's MaxInt64 and ran out of memory laying it out)
		if sp.width, err = strconv.Atoi(s[:i]); err != nil {
			return sp, fmt.Errorf("%w: Too many decimal digits in format string", pyerrors.ErrValue)
		}
		s = s[i:]
	}
	if len(s) > 0 && (s[0] == ',' || s[0] == '_') {
		sp.grouping, s = s[0], s[1:]
		if len(s) > 0 && s[0] == sp.grouping {
			return sp, fmt.Errorf("%w: Cannot specify '%c' with '%c'.", pyerrors.ErrValue, s[0], s[0])
		}
		if len(s) > 0 && (s[0] == ',' || s[0] == '_') {
			return sp, fmt.Errorf("%w: Cannot specify both ',' and '_'.", pyerrors.ErrValue)
		}
	}
	if strings.HasPrefix(s, ".") {
		i = 1
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 1 {
			return sp, fmt.Errorf("%w: Format specifier missing precision", pyerrors.ErrValue)
		}
		var err error
		if sp.prec, err = strconv.Atoi(s[1:i]); err != nil {
			return sp, fmt.Errorf("%w: Too many decimal digits in format string", pyerrors.ErrValue)
		}
		s = s[i:]
	}
	if len(s) > 1 {
		return bad()
	}
	if len(s) == 1 {
		sp.typ = s[0]
	}
	return sp, nil
}

// layout is CPython's _format_number: sign, integer digits (grouped, the
// zero padding grouped with them), fraction and exponent (tail), aligned.
func (sp numSpec) layout(neg bool, intpart, tail string, groupLen int) string {
	sign := ""
	switch {
	case neg:
		sign = "-"
	case sp.sign == '+':
		sign = "+"
	case sp.sign == ' ':
		sign = " "
	}
	fill, align := sp.fill, sp.align
	minWidth := 0
	if sp.zeropad && align == 0 {
		fill, align = '0', '='
		minWidth = sp.width - utf8.RuneCountInString(tail) - len(sign)
	}
	if sp.zeropad && sp.fill == 0 {
		fill = '0'
	}
	if fill == 0 {
		fill = ' '
	}
	intpart = groupDigits(intpart, sp.grouping, groupLen, minWidth)
	body := intpart + tail
	pad := sp.width - len(sign) - utf8.RuneCountInString(body)
	if pad <= 0 {
		return sign + body
	}
	fills := strings.Repeat(string(fill), pad)
	switch align {
	case '<':
		return sign + body + fills
	case '^':
		half := strings.Repeat(string(fill), pad/2)
		return half + sign + body + strings.Repeat(string(fill), pad-pad/2)
	case '=':
		return sign + fills + body
	}
	return fills + sign + body
}

// groupDigits is _pydecimal's _insert_thousands_sep: groups of n digits
// joined by sep (none when sep is 0), zero-padded to minWidth.
func groupDigits(digits string, sep byte, n, minWidth int) string {
	if sep == 0 {
		if len(digits) < minWidth {
			return strings.Repeat("0", minWidth-len(digits)) + digits
		}
		return digits
	}
	var groups []string
	for {
		l := min(max(len(digits), minWidth, 1), n)
		groups = append(groups, strings.Repeat("0", max(l-len(digits), 0))+digits[max(len(digits)-l, 0):])
		digits = digits[:max(len(digits)-l, 0)]
		minWidth -= l
		if digits == "" && minWidth <= 0 {
			break
		}
		minWidth--
	}
	var b strings.Builder
	for i := len(groups) - 1; i >= 0; i-- {
		b.WriteString(groups[i])
		if i > 0 {
			b.WriteByte(sep)
		}
	}
	return b.String()
}

// formatPyInt is format(int, spec) (a bool as its int).
func formatPyInt(n *big.Int, spec string) (string, error) {
	sp, err := parseNumSpec(spec, "int")
	if err != nil {
		return "", err
	}
	switch sp.typ {
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		x, _ := new(big.Float).SetInt(n).Float64()
		return formatPyFloat(x, "", spec)
	case 0, 'd', 'n', 'b', 'o', 'x', 'X', 'c':
	default:
		return "", fmt.Errorf("%w: Unknown format code '%c' for object of type 'int'", pyerrors.ErrValue, sp.typ)
	}
	if sp.prec >= 0 {
		return "", fmt.Errorf("%w: Precision not allowed in integer format specifier", pyerrors.ErrValue)
	}
	if sp.noNegZero {
		return "", fmt.Errorf("%w: Negative zero coercion (z) not allowed in integer format specifier", pyerrors.ErrValue)
	}
	if sp.grouping == ',' && sp.typ != 0 && sp.typ != 'd' {
		return "", fmt.Errorf("%w: Cannot specify ',' with '%c'.", pyerrors.ErrValue, sp.typ)
	}
	if sp.grouping == '_' && (sp.typ == 'n' || sp.typ == 'c') {
		return "", fmt.Errorf("%w: Cannot specify '_' with '%c'.", pyerrors.ErrValue, sp.typ)
	}
	if sp.typ == 'c' {
		if sp.sign != 0 {
			return "", fmt.Errorf("%w: Sign not allowed with integer format specifier 'c'", pyerrors.ErrValue)
		}
		if sp.alt {
			return "", fmt.Errorf("%w: Alternate form (#) not allowed with integer format specifier 'c'", pyerrors.ErrValue)
		}
		if !n.IsInt64() || n.Int64() < 0 || n.Int64() > 0x10ffff {
			return "", fmt.Errorf("%w: %%c arg not in range(0x110000)", pyerrors.ErrOverflow)
		}
		sp.zeropad = sp.zeropad && sp.align == 0
		return sp.layout(false, "", string(rune(n.Int64())), 3), nil
	}
	base, prefix, groupLen := 10, "", 3
	switch sp.typ {
	case 'b':
		base, prefix, groupLen = 2, "0b", 4
	case 'o':
		base, prefix, groupLen = 8, "0o", 4
	case 'x', 'X':
		base, prefix, groupLen = 16, "0x", 4
	}
	digits := new(big.Int).Abs(n).Text(base)
	if sp.typ == 'X' {
		digits, prefix = strings.ToUpper(digits), "0X"
	}
	if !sp.alt {
		prefix = ""
	}
	if prefix == "" {
		return sp.layout(n.Sign() < 0, digits, "", groupLen), nil
	}
	// the prefix sits between the sign and the zero padding: lay out
	// without it in a width narrowed by its length, then put it back
	sp.width -= len(prefix)
	out := sp.layout(n.Sign() < 0, digits, "", groupLen)
	i := strings.Index(out, digits[:1])
	if sp.zeropad && sp.align == 0 || sp.align == '=' {
		i = 0
		if n.Sign() < 0 || sp.sign == '+' || sp.sign == ' ' {
			i = 1
		}
	}
	return out[:i] + prefix + out[i:], nil
}

// formatPyFloat is format(float, spec); repr is the float's str() (used
// with no type and no precision).
func formatPyFloat(x float64, repr, spec string) (string, error) {
	sp, err := parseNumSpec(spec, "float")
	if err != nil {
		return "", err
	}
	typ := sp.typ
	switch typ {
	case 0, 'e', 'E', 'f', 'F', 'g', 'G', 'n', '%':
	default:
		return "", fmt.Errorf("%w: Unknown format code '%c' for object of type 'float'", pyerrors.ErrValue, typ)
	}
	if typ == 'n' && sp.grouping != 0 {
		return "", fmt.Errorf("%w: Cannot specify '%c' with 'n'.", pyerrors.ErrValue, sp.grouping)
	}
	neg := math.Signbit(x)
	x = math.Abs(x)
	if math.IsInf(x, 0) || math.IsNaN(x) {
		body := "inf"
		if math.IsNaN(x) {
			body, neg = "nan", false
		}
		if typ == 'E' || typ == 'F' || typ == 'G' {
			body = strings.ToUpper(body)
		}
		if typ == '%' {
			body += "%"
		}
		sp.grouping = 0
		return sp.layout(neg, "", body, 3), nil
	}
	prec := sp.prec
	var s string // digits of |x| as C's printf forms them
	switch typ {
	case 'e', 'E':
		s = strconv.FormatFloat(x, 'e', defaultPrec(prec), 64)
	case 'f', 'F':
		s = strconv.FormatFloat(x, 'f', defaultPrec(prec), 64)
	case '%':
		s = strconv.FormatFloat(x*100, 'f', defaultPrec(prec), 64)
	case 'g', 'G', 'n':
		s = formatG(x, max(defaultPrec(prec), 1), sp.alt, false)
	default: // no type
		if prec < 0 {
			s = strings.TrimPrefix(repr, "-")
			if repr == "" {
				s = strconv.FormatFloat(x, 'g', -1, 64)
			}
		} else {
			s = formatG(x, max(prec, 1), sp.alt, true)
		}
	}
	if sp.noNegZero && neg && strings.Trim(s, "0.e+-%") == "" {
		neg = false
	}
	mant, exp, hasExp := strings.Cut(s, "e")
	intpart, frac, hasDot := strings.Cut(mant, ".")
	tail := ""
	if hasDot || sp.alt {
		tail = "." + frac
	}
	if hasExp {
		e := "e"
		if typ == 'E' || typ == 'G' {
			e = "E"
		}
		tail += e + exp
	}
	if typ == '%' {
		tail += "%"
	}
	if typ == 'F' || typ == 'E' || typ == 'G' {
		tail = strings.ToUpper(tail)
	}
	return sp.layout(neg, intpart, tail, 3), nil
}

func defaultPrec(p int) int {
	if p < 0 {
		return 6
	}
	return p
}

// formatG is C's %.{p}g of x >= 0 (trailing zeros dropped unless alt);
// dot0 is Python's no-type form: fixed notation keeps one digit past the
// point, and scientific from an exponent of p-1.
func formatG(x float64, p int, alt, dot0 bool) string {
	e := strconv.FormatFloat(x, 'e', p-1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	limit := p
	if dot0 {
		limit = p - 1
	}
	var s string
	if exp < -4 || exp >= limit {
		s = e
	} else {
		s = strconv.FormatFloat(x, 'f', p-1-exp, 64)
	}
	mant, expPart, hasExp := strings.Cut(s, "e")
	if !alt && strings.Contains(mant, ".") {
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
	}
	if dot0 && !hasExp && !strings.Contains(mant, ".") {
		mant += ".0"
	}
	if hasExp {
		return mant + "e" + expPart
	}
	return mant
}

// formatPyStr is str.__format__: fill, alignment (left by default),
// width and a precision that cuts the string; Python's ValueError for a
// sign, z, #, grouping, '=' or a type other than s. pystring's took
// '.0' for no precision and let a sign or z through.
func formatPyStr(s, spec string) (string, error) {
	sp, err := parseNumSpec(spec, "str")
	if err != nil {
		return "", err
	}
	fail := func(msg string) (string, error) { return "", fmt.Errorf("%w: %s", pyerrors.ErrValue, msg) }
	switch {
	case sp.typ != 0 && sp.typ != 's':
		return fail(fmt.Sprintf("Unknown format code '%c' for object of type 'str'", sp.typ))
	case sp.sign != 0:
		return fail("Sign not allowed in string format specifier")
	case sp.noNegZero:
		return fail("Negative zero coercion (z) not allowed in string format specifier")
	case sp.alt:
		return fail("Alternate form (#) not allowed in string format specifier")
	case sp.grouping != 0:
		return fail(fmt.Sprintf("Cannot specify '%c' with 's'.", sp.grouping))
	case sp.align == '=':
		return fail("'=' alignment not allowed in string format specifier")
	}
	if sp.prec >= 0 {
		if r := []rune(s); len(r) > sp.prec {
			s = string(r[:sp.prec])
		}
	}
	if sp.align == 0 {
		sp.align = '<'
	}
	return sp.layout(false, "", s, 3), nil
}
