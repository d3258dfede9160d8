package render

import (
	"math"
	"strings"
	"testing"
)

// TestPercentFormatsAsPython: Jinja2's % on a string is Python's printf
// formatting and on numbers Python's modulo (floored: -7 % 3 is 2; floats
// keep their fraction). gonja took both sides as integers: '%02d' % i
// rendered "0" (z2healthinsights/cms_alr_connector's
// bene_rsk_r_scre_{{ '%02d' % i }} became bene_rsk_r_scre_0: a missing
// column), 'x_%s' % name rendered 0, -7 % 3 rendered -1 and 7.5 % 2
// rendered 1. The format filter is the same formatting (it printed Go's
// %!s(int=1) for '%s'|format(1)).
func TestPercentFormatsAsPython(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRendered(t, env, map[string]any{"x": math.Inf(1), "n": math.NaN()}, []struct{ src, out string }{
		{"{% for i in range(1, 3) %}c_{{ '%02d' % i }} {% endfor %}", "c_01 c_02 "},
		{"{{ 'bene_%s_%s' % ('a', 3) }}", "bene_a_3"},
		{"{{ '%(n)s=%(v)d' % {'n': 'x', 'v': 2} }}", "x=2"},
		{"{{ '%.2f|%5s|%-5s|' % (3.14159, 'ab', 'cd') }}", "3.14|   ab|cd   |"},
		{"{{ '%s and %s' % (true, 1.5) }}", "True and 1.5"},
		{"{{ '%x %X %o %#x %+d % d' % (255, 255, 8, 255, 5, 5) }}", "ff FF 10 0xff +5  5"},
		{"{{ '%e|%g|%g' % (12345.678, 1234567.0, 0.5) }}", "1.234568e+04|1.23457e+06|0.5"},
		{"{{ '100%% of %s' % 'it' }}", "100% of it"},
		{"{{ '%s' % [1, 2] }}|{{ '%r' % 'a' }}|{{ '%s' % none }}|{{ '%c' % 65 }}", "[1, 2]|'a'|None|A"},
		{"{{ -7 % 3 }} {{ 7 % -3 }} {{ 7.5 % 2 }} {{ -7.5 % 2 }} {{ 7 % 3 }}", "2 -2 1.5 0.5 1"},
		{"{{ '%s, %s!'|format('Hi', 1) }}|{{ '%(a)s'|format(a='k') }}", "Hi, 1!|k"},
		// review33's probe against CPython 3
		{"{{ '%.3d|%5.3d|%+.2d' % (5, -5, 7) }}", "005| -005|+07"},
		{"{{ '%d|%x|%f' % (true, true, true) }}", "1|1|1.000000"},
		{"{{ '%f|%f|%F|%+f|%e' % (x, -x, x, x, n) }}", "inf|-inf|INF|+inf|nan"},
		{"{{ '%5c|%-3c|' % (65, 'b') }}", "    A|b  |"},
		{"{{ '%#6o|%#o|%-#6o|' % (8, 8, 8) }}", "  0o10|0o10|0o10  |"},
		{`{{ '%r|%r' % ("it's", 'a"b') }}`, `"it's"|'a"b'`},
		{"{{ '%.2s|%-4s|' % ('abc', 'x') }}", "ab|x   |"},
	})
	for _, tc := range []struct{ src, err string }{
		{"{{ '%d' % 'x' }}", "a real number is required, not str"},
		{"{{ '%s %s' % ('a',) }}", "not enough arguments for format string"},
		{"{{ '%s' % ('a', 'b') }}", "not all arguments converted during string formatting"},
		{"{{ 5 % 0 }}", "integer modulo by zero"},
	} {
		tpl, err := env.Parse("m.sql", tc.src)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		out, err := tpl.Render(map[string]any{})
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: %q %v, want the error %q", tc.src, out, err, tc.err)
		}
	}
}
