package render

import (
	"strings"
	"testing"
)

// TestRenderLimits: templates that would hang or exhaust memory stop with
// an error at the template; ordinary loops and macros still work.
func TestRenderLimits(t *testing.T) {
	env, errs := NewEnv(map[string]string{
		"macros/rec.sql":  "{% macro forever(n) %}x{{ forever(n + 1) }}{% endmacro %}",
		"macros/ok.sql":   "{% macro twice(s) %}{{ s }}{{ s }}{% endmacro %}{% macro nest(n) %}{% if n > 0 %}({{ nest(n - 1) }}){% endif %}{% endmacro %}",
		"macros/wide.sql": "{% macro wide() %}{% for i in range(1000) %}{{ 'y' * 100000 }}{% endfor %}{% endmacro %}",
	})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	for _, tc := range []struct{ name, src, out, err string }{
		{"ordinary", "select {{ twice('a') }}{% for i in range(3) %},{{ i }}{% endfor %} {{ nest(5) }}", "select aa,0,1,2 ((((()))))", ""},
		{"recursive macro", "select 1\n{{ forever(0) }}", "", "calls of macro forever (macros/rec.sql) nest deeper than docket's limit of 64"},
		{"recursive macro in the template", "select 1\n{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}\nselect {{ f(0) }}", "", "calls of macro f (defined at line 2) nest deeper than docket's limit of 64"},
		{"template macro calling a project macro", "{% macro g(n) %}{{ forever(n) }}{% endmacro %}{{ g(0) }}", "", "calls of macro forever (macros/rec.sql) nest deeper than docket's limit of 64"},
		{"template macros nesting", "{% macro h(n) %}{% if n > 0 %}[{{ h(n - 1) }}]{% endif %}{% endmacro %}{{ h(3) }}", "[[[]]]", ""},
		{"huge range", "select 1\n{% for i in range(100000000) %}{{ i }}{% endfor %}", "", "2:1: range of 100000000 items is over docket's limit of 100000 per loop"},
		{"nested loops", "{% for i in range(1000) %}{% for j in range(1000) %}{% for k in range(1000) %}{% endfor %}{% endfor %}{% endfor %}", "", "over docket's limit of 1000000 iterations"},
		{"huge output", "{{ wide() }}", "", "over docket's limit of 64 MB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := env.Parse("m.sql", tc.src)
			if err != nil {
				t.Fatal(err)
			}
			out, err := tpl.Render(nil)
			if tc.err == "" {
				if err != nil || out != tc.out {
					t.Fatalf("got %q, %v; want %q", out, err, tc.out)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("got %v (output %d bytes); want an error containing %q", err, len(out), tc.err)
			}
		})
	}
}
