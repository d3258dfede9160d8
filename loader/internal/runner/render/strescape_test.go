package render

import "testing"

// TestStringLiteralLineContinuation: a backslash at the end of a line
// inside a Jinja string literal joins the lines, as Python's string
// literals (Jinja2 unescapes them so): dbt-utils' surrogate_key error
// message is written so, and docket printed it with "\n" where each line
// ended (robust29's hunt, frizzleqq/f1-dbt-duckdb). Other escapes stay.
func TestStringLiteralLineContinuation(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, tc := range []struct{ src, out string }{
		{"{% set m = 'one \\\ntwo' %}{{ m }}|{{ m | length }}", "one two|7"},
		{"{{ \"a\\\r\nb\" }}", "ab"},
		{"{{ 'tab\\tx' }}", "tab\tx"},
		{"{{ 'back\\\\slash' }}", "back\\slash"},
	} {
		tpl, err := env.Parse("m.sql", tc.src)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		out, err := tpl.Render(map[string]any{})
		if err != nil || out != tc.out {
			t.Errorf("%q: %q %v, want %q", tc.src, out, err, tc.out)
		}
	}
}
