package methods

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/nikolalohinski/gonja/v2/builtins/methods/pyerrors"
	"github.com/nikolalohinski/gonja/v2/exec"
)

// formatPyDecimal (docket) is format(Decimal, spec), a port of CPython's
// Decimal.__format__ (_pydecimal): the Decimal's own digits rounded half
// to even, never through a float ('{:g}' of 1.50 is 1.50, '{:.3}' of
// 1234567.5 is 1.23E+6). C's _decimal refuses '_', '#', a '0' flag with
// a fill or an alignment, and types outside eEfFgGn%: "invalid format
// string".
func formatPyDecimal(d exec.Decimal, spec string) (string, error) {
	sp, err := parseNumSpec(spec, "decimal.Decimal")
	invalid := fmt.Errorf("%w: invalid format string", pyerrors.ErrValue)
	if err != nil || sp.grouping == '_' || sp.alt || sp.zeropad && (sp.align != 0 || sp.fill != 0) {
		return "", invalid
	}
	typ := sp.typ
	switch typ {
	case 0:
		typ = 'G' // the default context's capitals=1
	case 'n':
		if sp.grouping != 0 {
			return "", invalid
		}
		typ = 'g'
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
	default:
		return "", invalid
	}
	prec := sp.prec
	if prec == 0 && (typ == 'g' || typ == 'G') {
		prec = 1
	}
	neg := d.Coef.Sign() < 0
	if typ == '%' {
		d = exec.Decimal{Coef: d.Coef, Exp: d.Exp + 2}
	}
	zero := d.Coef.Sign() == 0
	ndigits := func(d exec.Decimal) int { return len(new(big.Int).Abs(d.Coef).String()) }
	if prec >= 0 {
		switch typ {
		case 'e', 'E':
			d = roundSignificant(d, prec+1)
		case 'f', 'F', '%':
			d = d.Quantize(-prec)
		case 'g', 'G':
			if ndigits(d) > prec {
				d = roundSignificant(d, prec)
			}
		}
	}
	if zero && d.Exp > 0 && (typ == 'f' || typ == 'F' || typ == '%') {
		d = exec.Decimal{Coef: new(big.Int), Exp: 0}
	}
	if sp.noNegZero && d.Coef.Sign() == 0 {
		neg = false
	}
	digits := new(big.Int).Abs(d.Coef).String()
	left := d.Exp + len(digits)
	dot := 1
	switch typ {
	case 'e', 'E':
		if zero && prec >= 0 {
			dot = 1 - prec
		}
	case 'f', 'F', '%':
		dot = left
	default: // g, G
		if d.Exp <= 0 && left > -6 {
			dot = left
		}
	}
	var intpart, frac string
	switch {
	case dot < 0:
		intpart, frac = "0", strings.Repeat("0", -dot)+digits
	case dot > len(digits):
		intpart = digits + strings.Repeat("0", dot-len(digits))
	default:
		intpart, frac = digits[:dot], digits[dot:]
		if intpart == "" {
			intpart = "0"
		}
	}
	tail := ""
	if frac != "" {
		tail = "." + frac
	}
	if exp := left - dot; exp != 0 || typ == 'e' || typ == 'E' {
		e := "e"
		if typ == 'E' || typ == 'G' {
			e = "E"
		}
		tail += e + fmt.Sprintf("%+d", exp)
	}
	if typ == '%' {
		tail += "%"
	}
	return sp.layout(neg, intpart, tail, 3), nil
}

// roundSignificant is Decimal._round: d with n significant digits (zeros
// added or digits rounded off half to even); a zero stays as it is.
func roundSignificant(d exec.Decimal, n int) exec.Decimal {
	if d.Coef.Sign() == 0 {
		return d
	}
	adjusted := func(d exec.Decimal) int { return d.Exp + len(new(big.Int).Abs(d.Coef).String()) - 1 }
	r := d.Quantize(adjusted(d) + 1 - n)
	if adjusted(r) != adjusted(d) {
		r = r.Quantize(adjusted(r) + 1 - n)
	}
	return r
}
