package runner

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestPackageRunHooks: the on-run-start/on-run-end hooks of installed
// packages run, before the root project's, packages by name (not by
// folder), each list in its order (dbt's RunTask._hook_keyfunc); a
// package's hook calls its own macro; each is a result named
// operation.<pkg>.<pkg>-on-run-start-<i>. They were warned and not run.
func TestPackageRunHooks(t *testing.T) {
	ins := func(who string) string {
		return "insert into test_schema.hooklog select count(*), '" + who + "' from test_schema.hooklog"
	}
	files := shapeProject("app", map[string]string{
		"models/m.sql": "select 1 as id",
		"dbt_packages/zz/dbt_project.yml": "name: alpha\nversion: '1'\nconfig-version: 2\non-run-start:\n" +
			"  - create table if not exists test_schema.hooklog (i integer, s varchar)\n  - \"" + ins("alpha") + "\"\n" +
			"on-run-end: \"{{ alpha_end() }}\"\n",
		"dbt_packages/zz/macros/end.sql":  "{% macro alpha_end() %}" + ins("alpha end") + "{% endmacro %}",
		"dbt_packages/aa/dbt_project.yml": "name: beta\nversion: '1'\nconfig-version: 2\non-run-start: \"" + ins("beta") + "\"\n",
	})
	files["dbt_project.yml"] += "on-run-start: \"" + ins("root") + "\"\non-run-end: [\"" + ins("root end") + "\"]\n"
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for _, w := range m.Warnings {
		if strings.Contains(w.String(), "on-run") {
			t.Errorf("warning: %s", w)
		}
	}
	rr, err := runDir(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, r := range rr.Results {
		if r.Status != executor.StatusSuccess {
			t.Errorf("%s %s: %s", r.UniqueID, r.Status, r.Message)
		}
		if strings.HasPrefix(r.UniqueID, "operation.") {
			ops = append(ops, r.UniqueID)
		}
	}
	want := "operation.alpha.alpha-on-run-start-0 operation.alpha.alpha-on-run-start-1 operation.beta.beta-on-run-start-0 " +
		"operation.app.app-on-run-start-0 operation.alpha.alpha-on-run-end-0 operation.app.app-on-run-end-0"
	if got := strings.Join(ops, " "); got != want {
		t.Errorf("hook results:\n%s\nwant\n%s", got, want)
	}
	q := shapeQuery(t, shapeDB(t, dir))
	if got := q("select string_agg(s, ',' order by i) from test_schema.hooklog"); got != "alpha,beta,root,alpha end,root end" {
		t.Errorf("hooks ran in the order %s", got)
	}
}
