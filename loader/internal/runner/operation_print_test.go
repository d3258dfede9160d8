package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestRunOperationPrintsTables: a run-operation macro that shows a
// run_query result with agate's print_table(), print_json() and
// print_structure() (common in dbt projects' operations) prints them as
// agate lays them out, where log(info=True) writes; it was an error ("not a
// method docket provides").
func TestRunOperationPrintsTables(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show(n=20) %}
{% set t = run_query("select * from (values (1, 'alpha', 2.5), (22, 'a rather long name indeed', null)) v(id, name, score) order by id") %}
{% do t.print_table(max_rows=n) %}
{% do t.print_json() %}
{% do t.print_structure() %}
{% endmacro %}`,
	})
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var logged []string
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, Log: func(s string) { logged = append(logged, s) }})
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	db := shapeDB(t, dir)
	for _, c := range []struct {
		n    int
		want []string
	}{
		{20, []string{
			"| id | name                 | score |\n| -- | -------------------- | ----- |\n|  1 | alpha                |   2.5 |\n| 22 | a rather long nam... |       |",
			`[{"id": 1, "name": "alpha", "score": 2.5}, {"id": 22, "name": "a rather long name indeed", "score": null}]`,
			"| column | data_type |\n| ------ | --------- |\n| id     | Number    |\n| name   | Text      |\n| score  | Number    |"}},
		{1, []string{"| id  | name  | score |\n| --- | ----- | ----- |\n|   1 | alpha |   2.5 |\n| ... | ...   |   ... |"}},
	} {
		logged = nil
		op, err := m.FindOperation("show")
		if err != nil {
			t.Fatal(err)
		}
		rr, err := executor.RunOperation(context.Background(), m, db, op, map[string]any{"n": c.n})
		if err != nil || rr.Results[0].Status != executor.StatusSuccess {
			t.Fatalf("show: %v %+v", err, rr)
		}
		if got, want := strings.Join(logged, "\n"), strings.Join(c.want, "\n"); !strings.HasPrefix(got, want) {
			t.Errorf("printed:\n%s\nwant:\n%s", got, want)
		}
	}
}
