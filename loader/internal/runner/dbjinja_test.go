package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestDbtPackageJinja: a self-made project using what the dbt-utils
// integration tests need, each checked by a test that must pass (or, for
// the deliberate failures, by its result): tests on an ephemeral model
// through its CTE, a macro test's where filter and its own config(),
// **kwargs into a dispatched macro, modules.re, set(), flags, a relation
// as a dict key, a statement whose result is empty, a post-hook that drops
// its relation, and raise_compiler_error at run time.
func TestDbtPackageJinja(t *testing.T) {
	files := map[string]string{
		"models/m/eph.sql":     "{{ config(materialized='ephemeral') }} select 1 as id union all select 2",
		"models/m/nums.sql":    "{{ config(materialized='table') }} select * from (values (1, 'a b'), (2, 'c-d'), (3, 'x')) t(id, label)",
		"models/m/dropped.sql": "{{ config(materialized='table', post_hook=\"{% do adapter.drop_relation(this.incorporate(type='table')) %}\") }} select 1 as id",
		"models/m/jinja.sql": "{{ config(materialized='table') }}\n" +
			"{% set d = {} %}{% do d.update({ref('nums'): 'n'}) %}\n" +
			"{% call statement('none', fetch_result=True) %}select id from {{ ref('nums') }} where id > 99{% endcall %}\n" +
			"{% set empty = load_result('none') %}\n" +
			"select '{{ modules.re.sub('[ -]+', '_', 'a b-c') }}' as slug,\n" +
			"  {{ set([3, 1, 3]) | length }} as distinct_n,\n" +
			"  '{{ flags.WHICH }}' as which,\n" +
			"  '{{ d[ref('nums')] }}' as keyed,\n" +
			"  '{{ (empty.table.column_names | join(',')) if execute }}' as empty_cols,\n" +
			"  {{ pass_on(a=1, b=2) }} as passed",
		"macros/m.sql": "{% macro pass_on() %}{{ return(adapter.dispatch('summed')(**kwargs)) }}{% endmacro %}\n" +
			"{% macro default__summed(a, b) %}{{ a + b }}{% endmacro %}\n" +
			"{% macro fails_at_run() %}{% if execute %}{% set r = run_query('select 1') %}{{ exceptions.raise_compiler_error('stop here: ' ~ r.columns[0].values()[0]) }}{% endif %}select 1 as id{% endmacro %}",
		"tests/generic/at_most.sql": "{% test at_most(model, column_name, top) %}\n" +
			"{{ config(fail_calc='sum(over)') }}\n" +
			"select {{ column_name }} - {{ top }} as over from {{ model }} where {{ column_name }} > {{ top }}\n" +
			"{% endtest %}",
		"models/m/schema.yml": "version: 2\nmodels:\n" +
			"  - name: eph\n    columns:\n      - name: id\n        tests:\n          - at_most: {top: 2}\n" +
			"  - name: nums\n    columns:\n      - name: id\n        tests:\n" +
			"          - at_most: {top: 1, config: {where: 'id < 2'}}\n" +
			"          - at_most:\n              top: 0\n              config: {severity: warn}\n",
		"tests/jinja_values.sql":    "select * from {{ ref('jinja') }} where not (slug = 'a_b_c' and distinct_n = 2 and which = 'build' and keyed = 'n' and empty_cols = 'id' and passed = 3)",
		"tests/dropped_is_gone.sql": "{% if execute and adapter.get_relation(database=this.database, schema='main', identifier='dropped') %}select 1 as still_there{% else %}select 1 where false{% endif %}",
		"models/m/raises.sql":       "{{ fails_at_run() }}",
		"models/m/badsql.sql":       "{% if execute %}{% set r = run_query('select * from nowhere.at_all') %}{% endif %}select 1 as id",
	}
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatalf("parse: %s", d)
	}
	_, rr := buildProbe(t, m)
	got := resultsByName(rr)
	want := map[string]string{
		"eph": "", "nums": executor.StatusSuccess, "dropped": executor.StatusSuccess, "jinja": executor.StatusSuccess,
		"at_most_eph_id__2":  executor.StatusPass, // through the ephemeral model's CTE
		"at_most_nums_id__1": executor.StatusPass, // where id < 2 leaves only id 1
		"at_most_nums_id__0": executor.StatusWarn, // 1+2+3 over, summed by the macro's fail_calc
		"jinja_values":       executor.StatusPass,
		"dropped_is_gone":    executor.StatusPass,
		"raises":             executor.StatusError,
	}
	for name, status := range want {
		r, ok := got[name]
		if status == "" {
			if ok {
				t.Errorf("%s: an ephemeral model does not run: %+v", name, r)
			}
			continue
		}
		if !ok || r.Status != status {
			t.Errorf("%s: %q %q, want %s (results %v)", name, r.Status, r.Message, status, keysOf(got))
		}
	}
	if r := got["at_most_nums_id__0"]; r.Failures == nil || *r.Failures != 6 {
		t.Errorf("at_most top 0: failures %v, want 6 (fail_calc sum(over) from the test's own config())", r.Failures)
	}
	if r := got["badsql"]; r.Status != executor.StatusError || !strings.Contains(r.Message, `run_query: Catalog Error: Table with name "nowhere.at_all" does not exist because schema "nowhere" does not exist.`) {
		t.Errorf("badsql: %q %q, want DuckDB's whole first line", r.Status, r.Message)
	}
	if r := got["raises"]; !strings.Contains(r.Message, "stop here: 1") {
		t.Errorf("raises: %q, want the compiler error with the run_query value", r.Message)
	}
}

func keysOf[V any](mp map[string]V) []string { return compiler.SortedKeys(mp) }

// TestDisabledTests: a singular test with config(enabled=false) and a
// generic test whose yml config says enabled: false do not run; they are
// in the manifest's disabled.
func TestDisabledTests(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql":      "select 1 as id",
		"models/m/schema.yml": "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        tests:\n          - unique:\n              config: {enabled: false}\n          - not_null\n",
		"tests/off.sql":       "{{ config(enabled = false) }} select 1 as failing",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if m.Nodes["test.probe.off"] != nil || m.Disabled["test.probe.off"] == nil {
		t.Errorf("tests/off.sql has enabled=false: it must be disabled")
	}
	if m.Nodes["test.probe.unique_a_id"] != nil || m.Disabled["test.probe.unique_a_id"] == nil || m.Nodes["test.probe.not_null_a_id"] == nil {
		t.Errorf("unique (enabled: false) must be disabled, not_null kept: nodes %v", compiler.SortedKeys(m.Nodes))
	}
}

// TestStoreFailures: a failing test with store_failures keeps its rows in
// main_dbt_test__audit.<test>; store_failures_as: view makes a view; a
// passing test's table is there and empty.
func TestStoreFailures(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "{{ config(materialized='table') }} select * from (values (1), (1), (2), (null)) t(id)",
		"models/m/schema.yml": "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        tests:\n" +
			"          - unique: {config: {store_failures: true}}\n" +
			"          - not_null: {config: {store_failures_as: view, severity: warn}}\n" +
			"          - accepted_values: {values: [1, 2], quote: false, config: {store_failures: true, where: 'id is not null'}}\n",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	ctx := context.Background()
	db, rr := buildProbe(t, m)
	for _, r := range rr.Results {
		if r.Status == executor.StatusError {
			t.Errorf("%s: %s", r.UniqueID, r.Message)
		}
	}
	for rel, want := range map[string]string{
		`main_dbt_test__audit.unique_a_id`:                       "BASE TABLE 1",
		`main_dbt_test__audit.not_null_a_id`:                     "VIEW 1",
		`main_dbt_test__audit.accepted_values_a_id__False__1__2`: "BASE TABLE 0",
	} {
		schema, name, _ := strings.Cut(rel, ".")
		var typ string
		var n int
		if err := db.SQL().QueryRowContext(ctx, "select table_type from information_schema.tables where table_schema = ? and table_name = ?", schema, name).Scan(&typ); err != nil {
			t.Errorf("%s: %v (tables: %v)", rel, err, compiler.SortedKeys(m.Nodes))
			continue
		}
		if err := db.SQL().QueryRowContext(ctx, "select count(*) from "+compiler.Relation(schema, name)).Scan(&n); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
		if got := fmt.Sprintf("%s %d", typ, n); got != want {
			t.Errorf("%s: %s, want %s", rel, got, want)
		}
	}
}

// TestContractEnforced: a model with contract: {enforced: true} builds
// when its SQL returns the YAML's columns and types (int = INTEGER as
// DuckDB resolves them), and fails naming each difference otherwise; a
// model without an enforced contract is not checked.
func TestContractEnforced(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/good.sql":  "{{ config(materialized='table') }} select 1 as id, 'a' as name",
		"models/m/bad.sql":   "{{ config(materialized='table') }} select 1.5 as id, 'a' as extra",
		"models/m/loose.sql": "select 1.5 as id",
		"models/m/nulls.sql": "{{ config(materialized='table') }} select 1 as id union all select null",
		"models/m/dupes.sql": "{{ config(materialized='table') }} select 1 as id, 2 as k union all select 1, 3",
		"models/m/neg.sql":   "{{ config(materialized='table') }} select -1 as id",
		"models/m/schema.yml": "version: 2\nmodels:\n" +
			"  - name: good\n    config: {contract: {enforced: true}}\n    constraints: [{type: check, expression: \"id > 0\"}, {type: foreign_key, columns: [id], to: \"ref('bad')\", to_columns: [id]}]\n" +
			"    columns: [{name: id, data_type: int, constraints: [{type: not_null}, {type: primary_key}]}, {name: name, data_type: varchar, constraints: [{type: unique}]}]\n" +
			"  - name: bad\n    config: {contract: {enforced: true}}\n    columns: [{name: id, data_type: int}, {name: name, data_type: text}]\n" +
			"  - name: loose\n    columns: [{name: id, data_type: int, constraints: [{type: not_null}]}]\n" +
			"  - name: nulls\n    config: {contract: {enforced: true}}\n    columns: [{name: id, data_type: int, constraints: [{type: not_null}]}]\n" +
			"  - name: dupes\n    config: {contract: {enforced: true}}\n    constraints: [{type: primary_key, columns: [id]}]\n    columns: [{name: id, data_type: int}, {name: k, data_type: int}]\n" +
			"  - name: neg\n    config: {contract: {enforced: true}}\n    columns: [{name: id, data_type: int, constraints: [{type: check, expression: id > 0}]}]\n",
	})
	m, diags := parseProbe(t, dir)
	// constraints docket does not apply are warnings at their line
	var warns []string
	for _, w := range m.Warnings {
		warns = append(warns, w.String())
	}
	want := []string{
		"models/m/schema.yml:5:56: model good: constraint foreign_key on id is not applied (DuckDB cannot drop a table a foreign key references, which every rebuild does)",
		"models/m/schema.yml:11:56: model loose: constraint not_null on id is not applied: constraints apply with an enforced contract (config contract: {enforced: true}), as in dbt",
	}
	if len(diags) > 0 || strings.Join(warns, "\n") != strings.Join(want, "\n") {
		t.Fatalf("diagnostics %v\nwarnings:\n%s\nwant:\n%s", diags, strings.Join(warns, "\n"), strings.Join(want, "\n"))
	}
	db, rr := buildProbe(t, m)
	got := resultsByName(rr)
	if got["good"].Status != executor.StatusSuccess || got["loose"].Status != executor.StatusSuccess {
		t.Errorf("good %q %q, loose %q %q: want success", got["good"].Status, got["good"].Message, got["loose"].Status, got["loose"].Message)
	}
	bad := got["bad"]
	for _, want := range []string{"enforced contract", "column name (VARCHAR) is declared but the SQL does not return it", "column extra (VARCHAR) is returned but not declared"} {
		if bad.Status != executor.StatusError || !strings.Contains(bad.Message, want) {
			t.Errorf("bad: %q %q, want an error saying %q", bad.Status, bad.Message, want)
		}
	}
	// rows that break a constraint fail the build
	for name, want := range map[string]string{"nulls": "NOT NULL constraint failed", "dupes": "PRIMARY KEY or UNIQUE constraint violation", "neg": "CHECK constraint failed"} {
		if r := got[name]; r.Status != executor.StatusError || !strings.Contains(r.Message, want) {
			t.Errorf("%s: %s %q, want an error saying %q", name, r.Status, r.Message, want)
		}
	}
	// the built table carries its constraints
	var cons []string
	rows, err := db.SQL().Query("select constraint_type from duckdb_constraints() where table_name = 'good' order by 1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var c string
		rows.Scan(&c)
		cons = append(cons, c)
	}
	if strings.Join(cons, ",") != "CHECK,NOT NULL,PRIMARY KEY,UNIQUE" {
		t.Errorf("good's constraints: %v", cons)
	}
	// built again, the constrained table is replaced as any other
	rr, err = executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "run", Selected: []string{"model.probe.good"}, Force: true, Threads: 1})
	if err != nil || len(rr.Results) != 1 || rr.Results[0].Status != executor.StatusSuccess || rr.Results[0].UpToDate {
		t.Errorf("rebuild of good: %v %+v", err, rr.Results)
	}
}

// buildProbe opens a probe project's warehouse (closed when the test ends)
// and runs `build` over it on one thread.
func buildProbe(t *testing.T, m *compiler.Manifest) (*warehouse.DB, *executor.RunResults) {
	t.Helper()
	ctx := context.Background()
	db, err := warehouse.Open(ctx, m.Project.Warehouse, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.EnsureSchema(ctx); err != nil {
		t.Fatal(err)
	}
	rr, err := executor.Execute(ctx, m, db, executor.RunOptions{Command: "build", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	return db, rr
}

// resultsByName indexes a run's results by node name.
func resultsByName(rr *executor.RunResults) map[string]executor.Result {
	got := map[string]executor.Result{}
	for _, r := range rr.Results {
		got[r.Name] = r
	}
	return got
}
