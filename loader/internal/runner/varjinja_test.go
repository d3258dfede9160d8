package runner

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestVarRendersItsJinja: var('x') of a string holding Jinja renders it
// with the caller's context, as dbt's Var.get_rendered_var does
// (zazu-22/ff_data_analytics: vars: external_root: "{{ env_var('EXTERNAL_ROOT',
// 'data/raw') }}"). docket returned the text as written: printed into SQL
// it was a parse error, inside a literal it landed '{{ env_var(...) }}' in
// the data, and "{{ target.name == 'dev' }}" was a non-empty string, true
// in an {% if %} on every target, without a word. A value is rendered to
// text as dbt renders it ('True', not a boolean); a var that names itself
// is an error, not a loop.
func TestVarRendersItsJinja(t *testing.T) {
	vars := "name: probe\nprofile: probe\nvars:\n  root: \"{{ env_var('VARJ_ROOT', 'data/raw') }}\"\n" +
		"  is_prod: \"{{ target.name == 'prod' }}\"\n  sub: \"{{ var('root') }}/sub\"\n  plain: 3\n  self: \"{{ var('self') }}\"\n"
	dir := writeProbe(t, map[string]string{
		"dbt_project.yml": vars,
		"models/m/b.sql":  "select '{{ var('self') }}' as x",
	})
	if _, diags := parseProbe(t, dir); len(diags) != 1 || !strings.Contains(diags[0].String(), "models/m/b.sql") || !strings.Contains(diags[0].Msg, `var "self"`) {
		t.Errorf("diagnostics: %v, want one: var self names itself", diags)
	}
	dir = writeProbe(t, map[string]string{
		"dbt_project.yml": vars,
		"models/m/a.sql":  "select '{{ var('root') }}' as root, '{{ var('is_prod') }}' as p, '{{ var('sub') }}' as s, {{ var('plain') + 1 }} as n",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	db, rr := buildProbe(t, m)
	if r := resultsByName(rr)["a"]; r.Status != executor.StatusSuccess {
		t.Fatalf("a: %s %s\n%s", r.Status, r.Message, r.CompiledCode)
	}
	got := strings.Join(queryStrings(t, db.SQL(), "select concat_ws(' ', root, p, s, n) from main.a"), "")
	if want := "data/raw False data/raw/sub 4"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
