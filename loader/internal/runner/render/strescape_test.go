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
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{"{% set m = 'one \\\ntwo' %}{{ m }}|{{ m | length }}", "one two|7"},
		{"{{ \"a\\\r\nb\" }}", "ab"},
		{"{{ 'tab\\tx' }}", "tab\tx"},
		{"{{ 'back\\\\slash' }}", "back\\slash"},
	})
}
