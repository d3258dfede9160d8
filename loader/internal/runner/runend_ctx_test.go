package runner

import (
	"context"
	"testing"
)

// TestOnRunEndResultsAndSchemas: on-run-end hooks see dbt's `results` (one
// per node run, each with node, status, message, execution_time,
// failures), `schemas` and `database_schemas` (the schemas the run built
// into), as packages such as dbt_artifacts read them; they were undefined
// names.
func TestOnRunEndResultsAndSchemas(t *testing.T) {
	files := shapeProject("re", map[string]string{
		"models/a.sql": "{{ config(materialized='table') }} select 1 as id",
		"models/b.sql": "{{ config(materialized='table') }} select * from {{ ref('a') }}",
	})
	files["dbt_project.yml"] += "on-run-end:\n" +
		"  - \"create table {{ target.schema }}.run_log as select * from (values {% for r in results %}('{{ r.node.unique_id }}', '{{ r.node.name }}', '{{ r.status }}', {{ r.execution_time >= 0 }}){{ ',' if not loop.last }}{% endfor %}) v(id, name, status, timed)\"\n" +
		"  - \"create table {{ target.schema }}.run_schemas as select '{{ schemas | join(',') }}' as s, '{{ database_schemas | length }}' as n, '{{ results | selectattr('status', 'equalto', 'success') | list | length }}' as ok\"\n"
	rr, err, dir := hookRun(t, files)
	if err != nil {
		t.Fatalf("%v\n%s", err, idStatuses(rr))
	}
	db := shapeDB(t, dir)
	ctx := context.Background()
	var n int
	if err := db.SQL().QueryRowContext(ctx, "select count(*) from test_schema.run_log where status = 'success' and timed and id in ('model.re.a', 'model.re.b') and name in ('a', 'b')").Scan(&n); err != nil || n != 2 {
		t.Fatalf("run_log: %d rows, %v", n, err)
	}
	var s, cnt, ok string
	if err := db.SQL().QueryRowContext(ctx, "select s, n, ok from test_schema.run_schemas").Scan(&s, &cnt, &ok); err != nil || s != "test_schema" || cnt != "1" || ok != "2" {
		t.Errorf("schemas %q, database_schemas %q, successes %q, %v", s, cnt, ok, err)
	}
}
