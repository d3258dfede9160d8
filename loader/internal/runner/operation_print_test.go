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
// method docket provides"). As agate's (and dbt show's, the same
// renderer): every column but Text right-justified, its header too
// (booleans and timestamps were left-justified, every header left), a
// Number grouped (1,234.5), types as dbt's tester names them (Integer).
func TestRunOperationPrintsTables(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"macros/show.sql": `{% macro show(n=20) %}
{% set t = run_query("select * from (values (1, 'alpha', 1234.5, true, timestamp '2024-01-02 03:04:05'), (22, 'a rather long name indeed', null, false, null)) v(id, name, amount, ok, ts) order by id") %}
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
			"| id | name                 |  amount |    ok |                  ts |",
			"| -- | -------------------- | ------- | ----- | ------------------- |",
			"|  1 | alpha                | 1,234.5 |  True | 2024-01-02 03:04:05 |",
			"| 22 | a rather long nam... |         | False |                     |",
			`[{"id": 1, "name": "alpha", "amount": 1234.5, "ok": true, "ts": "2024-01-02 03:04:05"}, {"id": 22, "name": "a rather long name indeed", "amount": null, "ok": false, "ts": null}]`,
			"| column | data_type |\n| ------ | --------- |\n| id     | Integer   |\n| name   | Text      |\n| amount | Number    |\n| ok     | Boolean   |\n| ts     | DateTime  |"}},
		{1, []string{"|  id | name  |  amount |   ok |                  ts |\n| --- | ----- | ------- | ---- | ------------------- |\n|   1 | alpha | 1,234.5 | True | 2024-01-02 03:04:05 |\n| ... | ...   |     ... |  ... |                 ... |"}},
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
