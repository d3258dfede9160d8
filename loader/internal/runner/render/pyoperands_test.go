package render

import (
	"math/big"
	"testing"
	"time"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// TestPythonOperandTypes: `in`, the arithmetic operators and the sum
// filter over every value type a template holds (str, int, float, bool,
// Decimal, None, list, tuple, dict, a date and a datetime) as Python
// computes them or refuses them. On main 'a' in 5 and 1 in 'abc' were
// False, [date] | sum 0, run_started_at + run_started_at 0, 1 + 'a'
// "1a", 2 ** 3 8.0, 7 // -2 -3 and 1 / 0 +Inf.
func TestPythonOperandTypes(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	ctx := map[string]any{"d": exec.NewDecimal(big.NewInt(150), 2), "day": Date{at}, "ts": Datetime{at},
		"m": map[string]any{"a": 1}, "n": nil}
	wantRendered(t, env, ctx, []struct{ src, out string }{
		{`{{ 'a' in 'abc' }} {{ 'a' in m }} {{ 'b' in m }} {{ 1 in [1.0] }} {{ d in [1.5] }} {{ none in [none] }} {{ 2 in (1, 2) }} {{ [1] in [[1]] }} {{ 'x' not in 'abc' }}`,
			`True True False True True True True True True`},
		{`{{ 2 ** 3 }} {{ 2 ** -1 }} {{ 7 // -2 }} {{ -7 // 2 }} {{ 7 % -2 }} {{ 7.0 // 2 }} {{ True + 1 }} {{ 1.5 * 2 }} {{ 'ab' * 2 }} {{ 2 * [0] }} {{ [1] + [2] }} {{ (1,) + (2,) }} {{ 'a' + 'b' }}`,
			`8 0.5 -4 -4 -1 3.0 2 3.0 abab [0, 0] [1, 2] (1, 2) ab`},
		{`{{ [1, 2] | sum }} {{ [1.5, 1.5] | sum }} {{ [True, True] | sum }} {{ [d, 1] | sum }} {{ [1, 2] | sum(start=10) }} {{ [{'a': 1}, {'a': 2}] | sum(attribute='a') }} {{ [] | sum }}`,
			`3 3.0 2 2.50 13 3 0`},
	})
	wantRenderErrors(t, env, ctx, map[string]string{
		`{{ 'a' in 5 }}`:              "argument of type 'int' is not iterable",
		`{{ 'a' in n }}`:              "argument of type 'NoneType' is not iterable",
		`{{ 'a' in 1.5 }}`:            "argument of type 'float' is not iterable",
		`{{ 'a' in True }}`:           "argument of type 'bool' is not iterable",
		`{{ 'a' in d }}`:              "argument of type 'decimal.Decimal' is not iterable",
		`{{ 'a' in ts }}`:             "argument of type 'datetime.datetime' is not iterable",
		`{{ 'a' in day }}`:            "argument of type 'datetime.date' is not iterable",
		`{{ 1 in 'abc' }}`:            "'in <string>' requires string as left operand, not int",
		`{{ none in 'abc' }}`:         "'in <string>' requires string as left operand, not NoneType",
		`{{ [day] | sum }}`:           "unsupported operand type(s) for + 'int' and 'datetime.date'",
		`{{ [ts, ts] | sum }}`:        "unsupported operand type(s) for + 'int' and 'datetime.datetime'",
		`{{ ['a'] | sum }}`:           "unsupported operand type(s) for + 'int' and 'str'",
		`{{ [none] | sum }}`:          "unsupported operand type(s) for + 'int' and 'NoneType'",
		`{{ [[1]] | sum }}`:           "unsupported operand type(s) for + 'int' and 'list'",
		`{{ [{'b': 1}] | sum('a') }}`: "sum(attribute='a') reached an item without it",
		`{{ ts + ts }}`:               "unsupported operand type(s) for + 'datetime.datetime' and 'datetime.datetime'",
		`{{ ts + 'x' }}`:              "unsupported operand type(s) for + 'datetime.datetime' and 'str'",
		`{{ day + 1 }}`:               "unsupported operand type(s) for + 'datetime.date' and 'int'",
		`{{ 1 + 'a' }}`:               "unsupported operand type(s) for + 'int' and 'str'",
		`{{ 'a' + 1 }}`:               `can only concatenate str (not "int") to str`,
		`{{ [1] + 2 }}`:               `can only concatenate list (not "int") to list`,
		`{{ 'a' * 'b' }}`:             "can't multiply sequence by non-int of type 'str'",
		`{{ 'a' * 1.5 }}`:             "can't multiply sequence by non-int of type 'float'",
		`{{ n + 1 }}`:                 "unsupported operand type(s) for + 'NoneType' and 'int'",
		`{{ m + m }}`:                 "unsupported operand type(s) for + 'dict' and 'dict'",
		`{{ [1] - [1] }}`:             "unsupported operand type(s) for - 'list' and 'list'",
		`{{ 1 / 0 }}`:                 "ZeroDivisionError",
		`{{ 1 // 0 }}`:                "ZeroDivisionError",
		`{{ '%d' % 'x' }}`:            "a real number is required, not str",
		`{{ '%f' % ts }}`:             "must be real number, not datetime.datetime",
	})
}
