package exec

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/nikolalohinski/gonja/v2/tokens"
	"github.com/pkg/errors"
)

// docket: Python's decimal.Decimal and its arbitrary-size int, the numbers
// dbt's agate table hands templates (a Number column's values are
// Decimals, a HUGEINT is an int past int64). Hand-written because Go has
// no library with Python's Decimal context (28 digits, half-even, the
// scale a sum or a product keeps, str()'s exponent rule); math/big does
// the arithmetic.

// pyPrec is the default decimal context's precision.
const pyPrec = 28

// Decimal is Python's decimal.Decimal: Coef * 10**Exp, printed as str()
// prints it (1.50 keeps its scale).
type Decimal struct {
	Coef *big.Int
	Exp  int
}

// NewDecimal is unscaled * 10**-scale (a DuckDB DECIMAL).
func NewDecimal(unscaled *big.Int, scale int) Decimal {
	return Decimal{Coef: new(big.Int).Set(unscaled), Exp: -scale}
}

// DecimalFromFloat is Decimal(repr(f)), as agate's Number casts a float;
// false for NaN and infinities.
func DecimalFromFloat(f float64) (Decimal, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Decimal{}, false
	}
	return ParseDecimal(formatFloatString(f))
}

// ParseDecimal is Decimal(s) for 1.50, -3, 1e+20, 1.5E-7.
func ParseDecimal(s string) (Decimal, bool) {
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		if _, err := fmt.Sscan(s[i+1:], &exp); err != nil {
			return Decimal{}, false
		}
		s = s[:i]
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		exp -= len(s) - i - 1
		s = s[:i] + s[i+1:]
	}
	c, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return Decimal{}, false
	}
	return Decimal{Coef: c, Exp: exp}, true
}

// String is Python's str(Decimal): plain when the exponent is <= 0 and
// the value not tiny, else scientific (1E+2, 1.0E-7).
func (d Decimal) String() string {
	digits := new(big.Int).Abs(d.Coef).String()
	sign := ""
	if d.Coef.Sign() < 0 {
		sign = "-"
	}
	left := d.Exp + len(digits)
	dot := 1
	if d.Exp <= 0 && left > -6 {
		dot = left
	}
	var s string
	switch {
	case dot <= 0:
		s = "0." + strings.Repeat("0", -dot) + digits
	case dot >= len(digits):
		s = digits + strings.Repeat("0", dot-len(digits))
	default:
		s = digits[:dot] + "." + digits[dot:]
	}
	if left != dot {
		s += fmt.Sprintf("E%+d", left-dot)
	}
	return sign + s
}

func (d Decimal) rat() *big.Rat {
	r := new(big.Rat).SetInt(d.Coef)
	p := new(big.Rat).SetInt(pow10(abs(d.Exp)))
	if d.Exp >= 0 {
		return r.Mul(r, p)
	}
	return r.Quo(r, p)
}

// Float64 is float(d).
func (d Decimal) Float64() float64 {
	f, _ := d.rat().Float64()
	return f
}

// Int64 is int(d) (toward zero), cut to int64.
func (d Decimal) Int64() int64 { return d.trunc().Int64() }

func (d Decimal) trunc() *big.Int {
	if d.Exp >= 0 {
		return new(big.Int).Mul(d.Coef, pow10(d.Exp))
	}
	return new(big.Int).Quo(d.Coef, pow10(-d.Exp))
}

// fix rounds d to the context's 28 digits, half to even.
func (d Decimal) fix() Decimal {
	n := len(new(big.Int).Abs(d.Coef).String())
	if n <= pyPrec {
		return d
	}
	drop := n - pyPrec
	q, r := new(big.Int).QuoRem(d.Coef, pow10(drop), new(big.Int))
	half := new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2))
	if c := half.Cmp(pow10(drop)); c > 0 || c == 0 && q.Bit(0) == 1 {
		q.Add(q, big.NewInt(int64(d.Coef.Sign())))
	}
	exp := d.Exp + drop
	if len(new(big.Int).Abs(q).String()) > pyPrec {
		q.Quo(q, big.NewInt(10))
		exp++
	}
	return Decimal{Coef: q, Exp: exp}
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// aligned is both coefficients at the smaller exponent.
func aligned(a, b Decimal) (*big.Int, *big.Int, int) {
	e := min(a.Exp, b.Exp)
	x := new(big.Int).Mul(a.Coef, pow10(a.Exp-e))
	y := new(big.Int).Mul(b.Coef, pow10(b.Exp-e))
	return x, y, e
}

// decimalDiv is Python's Decimal division: exact results at the ideal
// exponent (a.Exp - b.Exp) when they fit, else 28 digits.
func decimalDiv(a, b Decimal) Decimal {
	if a.Coef.Sign() == 0 {
		return Decimal{Coef: new(big.Int), Exp: a.Exp - b.Exp}
	}
	la, lb := len(new(big.Int).Abs(a.Coef).String()), len(new(big.Int).Abs(b.Coef).String())
	shift := lb - la + pyPrec + 1
	exp := a.Exp - b.Exp - shift
	x, y := new(big.Int).Set(a.Coef), new(big.Int).Set(b.Coef)
	if shift >= 0 {
		x.Mul(x, pow10(shift))
	} else {
		y.Mul(y, pow10(-shift))
	}
	q, r := new(big.Int).QuoRem(x, y, new(big.Int))
	if r.Sign() != 0 {
		if new(big.Int).Rem(q, big.NewInt(5)).Sign() == 0 {
			q.Add(q, big.NewInt(int64(q.Sign()|1)))
		}
	} else {
		ten := big.NewInt(10)
		for exp < a.Exp-b.Exp && new(big.Int).Rem(q, ten).Sign() == 0 {
			q.Quo(q, ten)
			exp++
		}
	}
	return Decimal{Coef: q, Exp: exp}.fix()
}

// pyNum is a number operand: its exact value, and whether it is a
// Decimal, a float or an int (a bool is an int, as in Python).
type pyNum struct {
	rat  *big.Rat
	dec  *Decimal
	flt  bool
	f    float64
	bint *big.Int
}

func asPyNum(v *Value) (pyNum, bool) {
	switch x := v.Interface().(type) {
	case Decimal:
		return pyNum{rat: x.rat(), dec: &x}, true
	case *big.Int:
		if x != nil {
			return pyNum{rat: new(big.Rat).SetInt(x), bint: x}, true
		}
	case bool:
		n := int64(0)
		if x {
			n = 1
		}
		return pyNum{rat: new(big.Rat).SetInt64(n), bint: big.NewInt(n)}, true
	}
	switch {
	case v.IsFloat():
		f := v.Float()
		n := pyNum{flt: true, f: f}
		if !math.IsNaN(f) && !math.IsInf(f, 0) {
			n.rat = new(big.Rat).SetFloat64(f)
		}
		return n, true
	case v.IsInteger():
		var b *big.Int
		if r := v.getResolvedValue(); r.CanUint() {
			b = new(big.Int).SetUint64(r.Uint())
		} else {
			b = big.NewInt(r.Int())
		}
		return pyNum{rat: new(big.Rat).SetInt(b), bint: b}, true
	}
	return pyNum{}, false
}

func (n pyNum) decimal() Decimal {
	if n.dec != nil {
		return *n.dec
	}
	return Decimal{Coef: n.bint, Exp: 0}
}

func (n pyNum) float() float64 {
	if n.flt {
		return n.f
	}
	f, _ := n.rat.Float64()
	return f
}

func pyTypeName(v *Value, n pyNum, ok bool) string {
	switch {
	case !ok:
		return PyTypeName(v)
	case n.dec != nil:
		return "decimal.Decimal"
	case n.flt:
		return "float"
	}
	return "int"
}

// isBigNumber is whether v is a Decimal or an int past int64: the
// values pyNumberOp computes on where gonja's int and float would not.
func isBigNumber(v *Value) bool {
	switch v.Interface().(type) {
	case Decimal, *big.Int:
		return true
	}
	return false
}

// pyInt is an int result: a Go int when it fits, as gonja's ints are.
func pyInt(b *big.Int) *Value {
	if b.IsInt64() {
		return AsValue(int(b.Int64()))
	}
	return AsValue(b)
}

// pyNumberOp computes a binary operator as Python when either side is a
// Decimal or a big int, or a PyOperand that computes it (false otherwise:
// gonja's own arithmetic).
func pyNumberOp(op string, left, right *Value) (*Value, bool) {
	if r, ok := pyOperandOp(op, left, right); ok {
		return r, true
	}
	if !isBigNumber(left) && !isBigNumber(right) || op == "%" && left.IsString() {
		return nil, false // '%s' % d formats
	}
	a, aok := asPyNum(left)
	b, bok := asPyNum(right)
	if op == "==" || op == "!=" {
		eq := aok && bok && a.rat != nil && b.rat != nil && a.rat.Cmp(b.rat) == 0
		return AsValue(eq == (op == "==")), true
	}
	unsupported := func() (*Value, bool) {
		// no ": " in the message: the renderer shows the text after the last
		what := "unsupported operand type(s) for " + op
		if strings.Contains("< <= > >=", op) {
			what = "'" + op + "' not supported between instances of"
		}
		return AsValue(errors.Errorf("TypeError as in Python (%s '%s' and '%s')", what, pyTypeName(left, a, aok), pyTypeName(right, b, bok))), true
	}
	if !aok || !bok {
		return unsupported()
	}
	switch op {
	case "<", "<=", ">", ">=":
		if a.rat == nil || b.rat == nil { // NaN or an infinity
			af, bf := a.float(), b.float()
			return AsValue(op == "<" && af < bf || op == "<=" && af <= bf || op == ">" && af > bf || op == ">=" && af >= bf), true
		}
		c := a.rat.Cmp(b.rat)
		return AsValue(op == "<" && c < 0 || op == "<=" && c <= 0 || op == ">" && c > 0 || op == ">=" && c >= 0), true
	}
	if (a.dec != nil || b.dec != nil) && (a.flt || b.flt) {
		return unsupported() // Python mixes no Decimal with a float
	}
	switch {
	case a.dec != nil || b.dec != nil:
		return decimalOp(op, a.decimal(), b.decimal())
	case a.flt || b.flt:
		return floatOp(op, a.float(), b.float())
	}
	return intOp(op, a.bint, b.bint)
}

func zeroDivision() (*Value, bool) {
	return AsValue(errors.New("ZeroDivisionError as in Python (division by zero)")), true
}

func decimalOp(op string, a, b Decimal) (*Value, bool) {
	switch op {
	case "+", "-":
		x, y, e := aligned(a, b)
		if op == "+" {
			return AsValue(Decimal{Coef: x.Add(x, y), Exp: e}.fix()), true
		}
		return AsValue(Decimal{Coef: x.Sub(x, y), Exp: e}.fix()), true
	case "*":
		return AsValue(Decimal{Coef: new(big.Int).Mul(a.Coef, b.Coef), Exp: a.Exp + b.Exp}.fix()), true
	case "/", "//", "%":
		if b.Coef.Sign() == 0 {
			return zeroDivision()
		}
		if op == "/" {
			return AsValue(decimalDiv(a, b)), true
		}
		x, y, e := aligned(a, b)
		q, r := new(big.Int).QuoRem(x, y, new(big.Int)) // Decimal's // truncates toward zero
		if op == "//" {
			return AsValue(Decimal{Coef: q, Exp: 0}), true
		}
		return AsValue(Decimal{Coef: r, Exp: e}), true
	case "**":
		if b.Exp == 0 && b.Coef.IsInt64() && b.Coef.Int64() >= 0 && b.Coef.Int64() <= 1000 {
			out := Decimal{Coef: big.NewInt(1)}
			for range b.Coef.Int64() {
				out = Decimal{Coef: new(big.Int).Mul(out.Coef, a.Coef), Exp: out.Exp + a.Exp}.fix()
			}
			return AsValue(out), true
		}
	}
	return AsValue(errors.Errorf("docket computes no Decimal %s %s %s", a, op, b)), true
}

func floatOp(op string, a, b float64) (*Value, bool) {
	switch op {
	case "+":
		return AsValue(a + b), true
	case "-":
		return AsValue(a - b), true
	case "*":
		return AsValue(a * b), true
	case "**":
		return AsValue(math.Pow(a, b)), true
	}
	if b == 0 {
		return zeroDivision()
	}
	switch op {
	case "/":
		return AsValue(a / b), true
	case "//":
		return AsValue(math.Floor(a / b)), true
	}
	m := math.Mod(a, b)
	if m != 0 && (m < 0) != (b < 0) {
		m += b
	}
	return AsValue(m), true
}

func intOp(op string, a, b *big.Int) (*Value, bool) {
	switch op {
	case "+":
		return pyInt(new(big.Int).Add(a, b)), true
	case "-":
		return pyInt(new(big.Int).Sub(a, b)), true
	case "*":
		return pyInt(new(big.Int).Mul(a, b)), true
	case "**":
		if b.Sign() >= 0 && b.IsInt64() && b.Int64() <= 10000 {
			return pyInt(new(big.Int).Exp(a, b, nil)), true
		}
		fa, _ := new(big.Float).SetInt(a).Float64()
		fb, _ := new(big.Float).SetInt(b).Float64()
		return AsValue(math.Pow(fa, fb)), true
	}
	if b.Sign() == 0 {
		return zeroDivision()
	}
	switch op {
	case "/":
		f, _ := new(big.Rat).SetFrac(a, b).Float64()
		return AsValue(f), true
	case "//", "%":
		q, m := new(big.Int).DivMod(a, b, new(big.Int)) // Euclidean: m >= 0
		if m.Sign() != 0 && b.Sign() < 0 {              // Python floors: m takes b's sign
			q.Sub(q, big.NewInt(1)) // b*(q-1) + (m+b) is still a: q was one too high (Add gave 7 // -2 = -2)
			m.Add(m, b)
		}
		if op == "//" {
			return pyInt(q), true
		}
		return pyInt(m), true
	}
	return AsValue(errors.Errorf("unknown operator %s", op)), true
}

// pyNegate is -v for a Decimal or a big int.
func pyNegate(v *Value) (*Value, bool) {
	switch x := v.Interface().(type) {
	case Decimal:
		return AsValue(Decimal{Coef: new(big.Int).Neg(x.Coef), Exp: x.Exp}), true
	case *big.Int:
		return pyInt(new(big.Int).Neg(x)), true
	}
	return nil, false
}

// pyNonZero is bool(v) for a Decimal or a big int.
func pyNonZero(v *Value) (nonZero, ok bool) {
	switch x := v.Interface().(type) {
	case Decimal:
		return x.Coef.Sign() != 0, true
	case *big.Int:
		return x.Sign() != 0, true
	}
	return false, false
}

// PyAdd is Python's a + b on numbers (the sum filter's step).
func PyAdd(a, b *Value) *Value {
	if r, ok := pyNumberOp("+", a, b); ok {
		return r
	}
	if a.IsInteger() && b.IsInteger() {
		r, _ := intOp("+", big.NewInt(int64(a.Integer())), big.NewInt(int64(b.Integer())))
		return r
	}
	return AsValue(a.Float() + b.Float())
}

// pyOperators are the binary operators pyNumberOp computes.
var pyOperators = map[tokens.Type]string{
	tokens.Addition: "+", tokens.Subtraction: "-", tokens.Multiply: "*", tokens.Division: "/",
	tokens.FloorDivision: "//", tokens.Modulo: "%", tokens.Power: "**",
	tokens.LowerThan: "<", tokens.LowerThanOrEqual: "<=", tokens.GreaterThan: ">",
	tokens.GreaterThanOrEqual: ">=", tokens.Equals: "==", tokens.Ne: "!=",
}

// PyNumberFilter is the abs, int or round(precision) filter of a Decimal
// or a big int, as Python's abs(), int() and round(); false for any
// other value.
func PyNumberFilter(name string, v *Value, precision int) (*Value, bool) {
	switch x := v.Interface().(type) {
	case Decimal:
		switch name {
		case "abs":
			return AsValue(Decimal{Coef: new(big.Int).Abs(x.Coef), Exp: x.Exp}), true
		case "int":
			return pyInt(x.trunc()), true
		case "round":
			return AsValue(x.quantize(-precision)), true
		}
	case *big.Int:
		switch name {
		case "abs":
			return pyInt(new(big.Int).Abs(x)), true
		case "int", "round":
			return v, true
		}
	}
	return nil, false
}

// Quantize is round(d, -exp): d at exponent exp, half to even.
func (d Decimal) Quantize(exp int) Decimal { return d.quantize(exp) }

// quantize is round(d, -exp): d at exponent exp, half to even.
func (d Decimal) quantize(exp int) Decimal {
	if exp <= d.Exp {
		return Decimal{Coef: new(big.Int).Mul(d.Coef, pow10(d.Exp-exp)), Exp: exp}
	}
	p := pow10(exp - d.Exp)
	q, r := new(big.Int).QuoRem(d.Coef, p, new(big.Int))
	half := new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2))
	if c := half.Cmp(p); c > 0 || c == 0 && q.Bit(0) == 1 {
		q.Add(q, big.NewInt(int64(d.Coef.Sign())))
	}
	return Decimal{Coef: q, Exp: exp}
}

// PyMod2 is Python's v % 2 for a number (floored for an int or a float,
// a Decimal's sign kept): the even and odd tests' step; false for any
// other value.
func PyMod2(v *Value) (*Value, bool) {
	if r, ok := pyNumberOp("%", v, AsValue(2)); ok {
		return r, !r.IsError()
	}
	if !v.IsNumber() {
		return nil, false
	}
	n, _ := asPyNum(v)
	if n.flt {
		return floatOp("%", n.f, 2)
	}
	return intOp("%", n.bint, big.NewInt(2))
}

// IsBigNumber is whether v is a Decimal or an int past int64.
func IsBigNumber(v *Value) bool { return isBigNumber(v) }

// Plain is d in fixed-point notation (1E+2 as 100, 1.0E-7 as
// 0.00000010): agate's print_table formats a Number from it.
func (d Decimal) Plain() string {
	return d.rat().FloatString(max(0, -d.Exp))
}

// MarshalJSON writes d as a float, as dbt's JSON encoder turns a Decimal.
func (d Decimal) MarshalJSON() ([]byte, error) {
	return []byte(formatFloatString(d.Float64())), nil
}

// PyLess is a < b when either is a Decimal or a big int (false, false
// otherwise, or when Python could not compare them).
func PyLess(a, b *Value) (less, ok bool) {
	if !isBigNumber(a) && !isBigNumber(b) && !isPyOperand(a) && !isPyOperand(b) {
		return false, false
	}
	r, ok := pyNumberOp("<", a, b)
	if !ok || r.IsError() { // a host operand that leaves < to gonja
		return false, false
	}
	return r.IsTrue(), true
}
