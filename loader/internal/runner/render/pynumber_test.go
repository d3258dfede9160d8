package render

import (
	"math/big"
	"testing"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// TestPythonBigNumbers: a Decimal and an int past int64 in a template
// compute, compare and print as Python's (what dbt's run_query hands a
// macro); mixing a Decimal with a float, or dividing by zero, is Python's
// error, not a silent number.
func TestPythonBigNumbers(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	h, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	ctx := map[string]any{"h": h, "d": exec.NewDecimal(big.NewInt(150), 2), "e": exec.NewDecimal(big.NewInt(-7), 8)}
	wantRendered(t, env, ctx, []struct{ src, out string }{
		{`{{ h > 1 }} {{ h * 2 }} {{ h // 7 }} {{ -h // 7 }} {{ -(h + 1) // 7 }} {{ -(h + 1) % 7 }} {{ '%d' % h }} {{ h - h }} {{ h == h }} {{ h / 10 }}`,
			`True 246913578024691357802469135780 17636684144620811271604938270 -17636684144620811271604938270 -17636684144620811271604938271 6 123456789012345678901234567890 0 True 1.2345678901234568e+28`},
		{`{{ d }} {{ d * 2 }} {{ d + 1 }} {{ d - d }} {{ d / 3 }} {{ d / 7 }} {{ d // 1 }} {{ d % 1 }} {{ d ** 2 }} {{ -d }}`,
			`1.50 3.00 2.50 0.00 0.50 0.2142857142857142857142857143 1 0.50 2.2500 -1.50`},
		{`{{ e }} {{ e * 10 }} {{ d > 1 }} {{ d == 1.5 }} {{ d != 1.5 }} {{ d < 2 }} {{ d in [1.5] }} {{ 'y' if d else 'n' }} {{ not (d - d) }}`,
			`-7E-8 -7.0E-7 True True False True True y True`},
		{`{{ [d, 1] | sum }} {{ d | round(1) }} {{ 2.0 | round }} {{ -d | abs }} {{ d | int }} {{ '%s|%.1f' % (d, d) }} {{ d ~ '' }}`,
			`2.50 1.5 2.0 1.50 1 1.50|1.5 1.50`},
		{`{% set xs = [h, d, 2, e] %}{{ xs | max }} {{ xs | min }} {{ xs | sort | join(',') }} {{ d is number }} {{ h is number }}`,
			`123456789012345678901234567890 -7E-8 -7E-8,1.50,2,123456789012345678901234567890 True True`},
	})
	wantRenderErrors(t, env, ctx, map[string]string{
		`{{ d * 1.5 }}`:                "unsupported operand type(s) for * 'decimal.Decimal' and 'float'",
		`{{ d < 'a' }}`:                "'<' not supported between instances of 'decimal.Decimal' and 'str'",
		`{{ d / 0 }}`:                  "ZeroDivisionError",
		`{{ d | list }}`:               "'decimal.Decimal' object is not iterable",
		`{% for x in d %}{% endfor %}`: "'decimal.Decimal' object is not iterable",
		`{{ h % 0 }}`:                  "ZeroDivisionError",
	})
}

// TestPythonNumberTests: Jinja2's even and odd tests are value % 2 == 0
// and == 1 with Python's %, integer is true for any Python int, and the
// round filter is Python's round(): the float's exact value half to even,
// an int stays an int (round(15, -1) is 20, True | round 1). Before: -3 is odd and a big even int is even were
// False (Go's -3 % 2 is -1; a big int no integer), 2.5 | round was 3.0,
// 0.125 | round(2) 0.13, 3 | round 3.0, without a word.
func TestPythonNumberTests(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	h, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	ctx := map[string]any{"h": h, "d": exec.NewDecimal(big.NewInt(150), 2)}
	wantRendered(t, env, ctx, []struct{ src, out string }{
		{`{{ -3 is odd }} {{ 4 is even }} {{ 3 is even }} {{ h is even }} {{ h is integer }} {{ d is integer }} {{ (d * 2) is odd }} {{ 2.0 is even }} {{ 'a' is even }}`,
			`True True False True True False True True False`},
		{`{{ 2.5 | round }} {{ 0.125 | round(2) }} {{ -2.5 | round }} {{ 3 | round }} {{ 2.675 | round(2) }} {{ 1.5 | round(0, 'floor') }} {{ 1.25 | round(1, 'ceil') }}`,
			`2.0 0.12 -2.0 3 2.67 1.0 1.3`},
		{`{{ 15 | round(-1) }} {{ 25 | round(-1) }} {{ -15 | round(-1) }} {{ true | round }}`, `20 20 -20 1`},
	})
}
