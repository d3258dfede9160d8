package render

import (
	"math/big"
	"testing"
)

// TestFalseTestIsIdentity: Jinja2's `x is false` is `x is False`, only
// the boolean False passes; the fork's test was `not x is True`, so 0, 1,
// 'x', none, a list and a dict were all "false" and {% if var('flag') is
// false %} took its branch for an unset flag where dbt does not.
func TestFalseTestIsIdentity(t *testing.T) {
	env, _ := NewEnv(nil)
	wantRendered(t, env, map[string]any{"n": nil, "zero": 0}, []struct{ src, out string }{
		{"{{ false is false }} {{ true is false }}", "True False"},
		{"{{ 0 is false }} {{ 1 is false }} {{ 'x' is false }} {{ '' is false }}", "False False False False"},
		{"{{ none is false }} {{ n is false }} {{ zero is false }} {{ [3] is false }} {{ {'a': 1} is false }}", "False False False False False"},
		{"{{ (1 == 2) is false }} {{ 0 is not false }}", "True True"},
		{"{{ true is true }} {{ 1 is true }} {{ none is true }}", "True False False"},
	})
}

// TestReverseKeepsOrder: reverse gives a list's or dict's own order
// backwards and a string's characters backwards, as Jinja2's reversed();
// the fork sorted a list or dict first ([3, 1, 2] gave [3, 2, 1]), left a
// two-item list as it was, and reversed a string byte by byte.
func TestReverseKeepsOrder(t *testing.T) {
	env, _ := NewEnv(nil)
	wantRendered(t, env, map[string]any{"l": []any{"b", "c", "a"}}, []struct{ src, out string }{
		{"{{ [3, 1, 2]|reverse|list }}", "[2, 1, 3]"},
		{"{{ [1, 2]|reverse|join(',') }}", "2,1"},
		{"{{ l|reverse|join(',') }}", "a,c,b"},
		{"{% for x in ['x', 'z', 'y']|reverse %}{{ x }}{% endfor %}", "yzx"},
		{"{{ {'b': 1, 'a': 2, 'c': 3}|reverse|list }}", "['c', 'a', 'b']"},
		{"{{ 'abc'|reverse }} {{ 'héllo'|reverse }}", "cba olléh"},
		{"{{ []|reverse|list }} {{ [7]|reverse|list }}", "[] [7]"},
	})
}

// TestFloorDivision: // floors as Python's: toward minus infinity, a
// float operand gives a float, a zero divisor is ZeroDivisionError; the
// fork truncated toward zero (-7 // 2 gave -3) and turned every result
// into an int; past int64 a negative divisor gave a quotient one too high.
func TestFloorDivision(t *testing.T) {
	env, _ := NewEnv(nil)
	big20 := new(big.Int).Exp(big.NewInt(10), big.NewInt(20), nil)
	wantRendered(t, env, map[string]any{"a": -7, "b": 2, "big": big20, "nbig": new(big.Int).Neg(big20)}, []struct{ src, out string }{
		{"{{ 7 // 2 }} {{ -7 // 2 }} {{ 7 // -2 }} {{ -7 // -2 }} {{ a // b }}", "3 -4 -4 3 -4"},
		{"{{ (-3) // 2 }} {{ 6 // 3 }} {{ -6 // 3 }}", "-2 2 -2"},
		{"{{ 7.5 // 2 }} {{ -7.5 // 2 }} {{ 7 // 2.0 }}", "3.0 -4.0 3.0"},
		// an int past int64 (pynumber.go's intOp) floors too; its quotient
		// by a negative divisor was one too high (-33333333333333333332)
		{"{{ big // -3 }} {{ nbig // -3 }} {{ big % -3 }}", "-33333333333333333334 33333333333333333333 -2"},
	})
}

// TestPowerAndDivisionByZero: an int to a whole power of 0 or more is an
// int (2 ** 3 printed 8.0; 10 ** 20 lost its digits as a float), and / by
// zero is Python's ZeroDivisionError (it printed +Inf).
func TestPowerAndDivisionByZero(t *testing.T) {
	env, _ := NewEnv(nil)
	wantRendered(t, env, map[string]any{"n": 3}, []struct{ src, out string }{
		{"{{ 2 ** 3 }} {{ 2 ** n }} {{ (2 ** 3)|string }} {{ 2 ** 0 }} {{ (-2) ** 3 }}", "8 8 8 1 -8"},
		{"{{ 10 ** 20 }} {{ 2 ** -1 }} {{ 2.0 ** 2 }} {{ 4 ** 0.5 }}", "100000000000000000000 0.5 4.0 2.0"},
		{"{{ 10 / 4 }} {{ -9 / 3 }}", "2.5 -3.0"},
	})
	wantRenderErrors(t, env, nil, map[string]string{
		"{{ 10 / 0 }}":  "ZeroDivisionError",
		"{{ 1.5 / 0 }}": "ZeroDivisionError",
		"{{ 7 // 0 }}":  "ZeroDivisionError",
	})
}
