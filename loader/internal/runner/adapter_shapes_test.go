package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// Self-made projects of the shapes dbt's adapter test suite (and
// dbt-duckdb's run of it) builds: a dbt_project.yml and a DuckDB profile,
// seeds of people, sources whose schema and identifier are Jinja, several
// commands in turn with --vars between them, and rows edited by hand
// between runs. Each asserts what dbt-duckdb gives.

// shapeProject is a dbt project named name writing into schema test_schema.
func shapeProject(name string, files map[string]string) map[string]string {
	files["dbt_project.yml"] = "name: " + name + "\nversion: '1.0'\nconfig-version: 2\nprofile: test\n"
	files["profiles.yml"] = "test:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: test.duckdb\n      schema: test_schema\n"
	return files
}

// peopleCSV is id,name,some_date rows from..to (ids as the rows).
func peopleCSV(from, to int) string {
	var b strings.Builder
	b.WriteString("id,name,some_date\n")
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%d,P%02d,19%02d-%02d-%02dT%02d:%02d:%02d\n", i, i, 50+i, 1+i%12, 1+i%28, i%24, i%60, (7*i)%60)
	}
	return b.String()
}

// seedSourceYML declares source raw.seed over the seed var('seed_name').
const seedSourceYML = "version: 2\nsources:\n  - name: raw\n    schema: \"{{ target.schema }}\"\n    tables:\n      - name: seed\n        identifier: \"{{ var('seed_name', 'base') }}\"\n"

// shapeRun parses dir with vars and runs command over everything it
// selects; every node must parse clean.
func shapeRun(t *testing.T, db *warehouse.DB, dir, command string, vars map[string]any) *executor.RunResults {
	t.Helper()
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, Vars: vars})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		t.Fatalf("%s: %s", command, d)
	}
	rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: command, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rr.Results {
		if r.Failed() {
			t.Errorf("%s: %s %s: %s", command, r.UniqueID, r.Status, r.Message)
		}
	}
	return rr
}

func shapeDB(t *testing.T, dir string) *warehouse.DB {
	t.Helper()
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	db, err := warehouse.Open(context.Background(), p.Warehouse, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// shapeQuery returns a function reading one value of a query on db as a
// string (the test stops at an error).
func shapeQuery(t *testing.T, db *warehouse.DB) func(sql string) string {
	return func(sql string) string {
		t.Helper()
		var s string
		if err := db.SQL().QueryRowContext(context.Background(), sql).Scan(&s); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return s
	}
}

func countRows(t *testing.T, db *warehouse.DB, rel string) int {
	t.Helper()
	var n int
	if err := db.SQL().QueryRowContext(context.Background(), "select count(*) from "+rel).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestShapeSnapshotsSeeHandEdits: check snapshots (all columns, one
// column, the date) and a timestamp snapshot over a seed chosen by a var,
// configured with target_database=database and target_schema=schema. Rows
// of the seed updated by hand between two `snapshot` runs are seen, as
// dbt sees them: 10, 20, then 30 (the name snapshot ignores new dates),
// then 40 (only the all and name snapshots see new names).
func TestShapeSnapshotsSeeHandEdits(t *testing.T) {
	files := shapeProject("snapshot_shapes", map[string]string{"seeds/base.csv": peopleCSV(1, 10), "seeds/added.csv": peopleCSV(1, 20)})
	for name, cols := range map[string]string{"all": "'all'", "name": "['name']", "date": "['some_date']"} {
		files["snapshots/cc_"+name+".sql"] = "{% snapshot cc_" + name + " %}\n    {{ config(check_cols=" + cols +
			", unique_key='id', strategy='check', target_database=database, target_schema=schema) }}\n" +
			"    select * from {{ ref(var('seed_name', 'base')) }}\n{% endsnapshot %}\n"
	}
	files["snapshots/ts.sql"] = "{% snapshot ts %}\n{{ config(strategy='timestamp', unique_key='id', updated_at='some_date', target_database=database, target_schema=schema) }}\n" +
		"select * from {{ ref(var('seed_name', 'base')) }}\n{% endsnapshot %}\n"
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	counts := func() string {
		var out []string
		for _, s := range []string{"cc_all", "cc_name", "cc_date", "ts"} {
			out = append(out, fmt.Sprint(countRows(t, db, "test_schema."+s)))
		}
		return strings.Join(out, " ")
	}
	added := map[string]any{"seed_name": "added"}
	shapeRun(t, db, dir, "seed", nil)
	shapeRun(t, db, dir, "snapshot", nil)
	if got := counts(); got != "10 10 10 10" {
		t.Errorf("first snapshot: %s, want 10 10 10 10", got)
	}
	shapeRun(t, db, dir, "snapshot", added)
	if got := counts(); got != "20 20 20 20" {
		t.Errorf("over the added seed: %s, want 20 20 20 20", got)
	}
	ctx := context.Background()
	if _, err := db.SQL().ExecContext(ctx, "update test_schema.added set some_date = some_date + interval 1 day where id > 10 and id < 21"); err != nil {
		t.Fatal(err)
	}
	shapeRun(t, db, dir, "snapshot", added)
	if got := counts(); got != "30 20 30 30" {
		t.Errorf("after new dates: %s, want 30 20 30 30", got)
	}
	if _, err := db.SQL().ExecContext(ctx, "update test_schema.added set name = name || '_updated' where id < 11"); err != nil {
		t.Fatal(err)
	}
	shapeRun(t, db, dir, "snapshot", added)
	if got := counts(); got != "40 30 30 30" {
		t.Errorf("after new names: %s, want 40 30 30 30", got)
	}
	// the edited seed is loaded again from its file by the next seed run,
	// after which it is up to date
	rr := shapeRun(t, db, dir, "seed", nil)
	for _, r := range rr.Results {
		if r.Name == "added" && r.UpToDate {
			t.Errorf("seed added was edited by hand: it must be loaded again")
		}
	}
	rr = shapeRun(t, db, dir, "seed", nil)
	for _, r := range rr.Results {
		if !r.UpToDate {
			t.Errorf("second seed run: %s not up to date", r.Name)
		}
	}
}

// TestShapeIncrementalOverVarSource: an incremental model reading a
// source whose schema is {{ target.schema }} and whose identifier is a
// var; run over base, then over added, it holds the added seed's rows. The
// catalog-relevant manifest has the seeds, the model and the source.
func TestShapeIncrementalOverVarSource(t *testing.T) {
	files := shapeProject("incremental", map[string]string{
		"seeds/base.csv": peopleCSV(1, 10), "seeds/added.csv": peopleCSV(1, 20), "models/schema.yml": seedSourceYML,
		"models/incremental.sql": "{{ config(materialized='incremental') }}\nselect * from {{ source('raw', 'seed') }}\n" +
			"{% if is_incremental() %}\nwhere id > (select max(id) from {{ this }})\n{% endif %}",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "seed", nil)
	shapeRun(t, db, dir, "run", map[string]any{"seed_name": "base"})
	if n := countRows(t, db, "test_schema.incremental"); n != 10 {
		t.Errorf("over base: %d rows, want 10", n)
	}
	shapeRun(t, db, dir, "run", map[string]any{"seed_name": "added"})
	if n := countRows(t, db, "(select * from test_schema.added except select * from test_schema.incremental)"); n != 0 || countRows(t, db, "test_schema.incremental") != 20 {
		t.Errorf("over added: the model does not hold the added seed's 20 rows")
	}
}

// TestShapeTestsOnASeedUnderModels: a seeds/schema.yml that describes the
// seed under `models:` (as dbt's generic-test fixtures do) still gets its
// tests, on the seed, with a warning that the entry's description and
// config are not applied.
func TestShapeTestsOnASeedUnderModels(t *testing.T) {
	files := shapeProject("generic_tests", map[string]string{
		"seeds/base.csv":    peopleCSV(1, 10),
		"seeds/schema.yml":  "version: 2\nmodels:\n  - name: base\n    columns:\n     - name: id\n       data_tests:\n         - not_null\n",
		"models/schema.yml": seedSourceYML,
		"models/view.sql":   "{{ config(materialized='view') }} select * from {{ source('raw', 'seed') }}",
	})
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	n := m.Nodes["test.generic_tests.not_null_base_id"]
	if n == nil || len(n.DependsOn.Nodes) != 1 || n.DependsOn.Nodes[0] != "seed.generic_tests.base" {
		t.Fatalf("not_null_base_id: %+v", n)
	}
	warned := false
	for _, w := range m.Warnings {
		warned = warned || (w.Path == "seeds/schema.yml" && strings.Contains(w.Msg, `"base" is a seed`))
	}
	if !warned {
		t.Errorf("no warning that models: base names a seed: %v", m.Warnings)
	}
	db := shapeDB(t, dir)
	rr := shapeRun(t, db, dir, "build", nil)
	if got := resultsByName(rr); len(got) != 3 || got["not_null_base_id"].Status != StatusPass {
		t.Errorf("build: %d nodes, want the seed, the view and the seed's test passing", len(got))
	}
}

// TestShapeAdapterMethods: a model that drops its upstream's schema,
// checks the relation is gone, creates the schema again and a view in it
// with create_view_as, as dbt's adapter-method fixture does; a singular
// test reads the model's columns.
func TestShapeAdapterMethods(t *testing.T) {
	files := shapeProject("adapter_methods", map[string]string{
		"models/upstream.sql": "select 1 as id",
		"models/expected.sql": "-- {{ ref('model') }}\nselect 2 as id",
		"models/model.sql": "{% set upstream = ref('upstream') %}\n{% if execute %}\n" +
			"{%- do adapter.drop_schema(upstream) -%}\n" +
			"{% set existing = adapter.get_relation(upstream.database, upstream.schema, upstream.identifier) %}\n" +
			"{% if existing is not none %}{% do exceptions.raise_compiler_error('still there') %}{% endif %}\n" +
			"{%- do adapter.create_schema(upstream) -%}\n" +
			"{% set sql = create_view_as(upstream, 'select 2 as id') %}\n{% do run_query(sql) %}\n{% endif %}\n" +
			"select * from {{ upstream }}",
		"tests/has_columns.sql": "{% set columns = adapter.get_columns_in_relation(ref('model')) %}\n" +
			"select 1 as id limit {{ 1 if (columns | length) == 0 else 0 }}",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "run", nil)
	if n := countRows(t, db, "(select * from test_schema.model except select * from test_schema.expected)"); n != 0 {
		t.Errorf("model and expected differ")
	}
	rr := shapeRun(t, db, dir, "test", nil)
	if len(rr.Results) != 1 || rr.Results[0].Status != StatusPass {
		t.Errorf("test: %v", resultsByName(rr))
	}
}

// TestShapeJinjaContext: dbt's context members a model may read render as
// dbt-duckdb renders them; Jinja in schema files (a source's database,
// schema and identifier, a model's config) is rendered at parse; source
// keys docket does not apply are warned with their line.
func TestShapeJinjaContext(t *testing.T) {
	files := shapeProject("ctx", map[string]string{
		"models/ctx.sql": "{{ config(materialized='table') }}\nselect '{{ database }}' as db, '{{ schema }}' as sch, '{{ model.name }}' as name,\n" +
			"  length('{{ invocation_id }}') as id_len, '{{ run_started_at.strftime(\"%Y\") }}' > '2000' as started,\n" +
			"  '{{ tojson({\"k\": [1]}) }}' as js, {{ fromjson('{\"n\": 3}')['n'] }} as n, '{{ local_md5(\"x\") }}' as md5",
		"models/schema.yml": "version: 2\nsources:\n  - name: raw\n    database: \"{{ target.database }}\"\n    schema: \"{{ target.schema }}\"\n" +
			"    tags: [nightly]\n    quoting: {identifier: true}\n    tables:\n      - name: t\n        identifier: \"{{ var('t_name', 'ctx') }}\"\n        external: {location: x}\n" +
			"models:\n  - name: ctx\n    config:\n      materialized: \"{{ 'table' if target.name == 'dev' else 'view' }}\"\n      enabled: \"{{ true }}\"\n",
	})
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	src := m.Sources["source.ctx.raw.t"]
	if src == nil || src.Relation != "test_schema.ctx" || len(src.Tags) != 1 || src.Tags[0] != "nightly" {
		t.Fatalf("source raw.t: %+v", src)
	}
	var warns []string
	for _, w := range m.Warnings {
		warns = append(warns, w.String())
	}
	for _, want := range []string{`models/schema.yml:7:15: source raw: quoting "identifier"`, `models/schema.yml:11:9: source raw.t: key "external"`} {
		if !strings.Contains(strings.Join(warns, "\n"), want) {
			t.Errorf("no warning %q in %v", want, warns)
		}
	}
	if c := m.Nodes["model.ctx.ctx"].Config; c.Materialized != "table" || !c.Enabled {
		t.Errorf("ctx config from Jinja in YAML: %+v", c)
	}
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "run", nil)
	var db_, sch, name, js, md5 string
	var idLen, n int
	var started bool
	err := db.SQL().QueryRowContext(context.Background(), "select db, sch, name, id_len, started, js, n, md5 from test_schema.ctx").
		Scan(&db_, &sch, &name, &idLen, &started, &js, &n, &md5)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintln(db_, sch, name, idLen, started, js, n, md5); got != "test test_schema ctx 36 true {\"k\": [1]} 3 9dd4e461268c8034f5c8564e155c67a6\n" {
		t.Errorf("context: %s", got)
	}
}

// TestShapeUtilsMacros: dbt-core's equals (reading adapter.behavior),
// generate_series, get_powers_of_two, get_intervals_between and date_spine,
// checked by a project's own assert_equal generic test, as dbt's utils
// fixtures do.
func TestShapeUtilsMacros(t *testing.T) {
	files := shapeProject("utils", map[string]string{
		"macros/assert.sql": "{% test assert_equal(model, actual, expected) %}\nselect * from {{ model }} where not {{ equals(actual, expected) }}\n{% endtest %}",
		"models/series.sql": "select (select count(*) from ({{ dbt.generate_series(10) }}) s) as actual, 10 as expected\n" +
			"union all select {{ dbt.get_powers_of_two(9) }}, 4\n" +
			"union all select {{ dbt.get_intervals_between(\"'2023-01-01'::date\", \"'2023-01-10'::date\", 'day') }}, 9\n" +
			"union all select (select count(*) from ({{ dbt.date_spine('day', \"'2023-01-01'::date\", \"'2023-01-10'::date\") }}) d), 9\n" +
			"union all select {{ 1 if adapter.behavior.some_flag else 0 }}, 0",
		"models/schema.yml": "version: 2\nmodels:\n  - name: series\n    data_tests:\n      - assert_equal: {actual: actual, expected: expected}\n",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	rr := shapeRun(t, db, dir, "build", nil)
	if got := resultsByName(rr); len(got) != 2 || got["assert_equal_series_actual__expected"].Status != StatusPass {
		t.Errorf("build: %+v", got)
	}
}

// TestShapeExternalSources: dbt-duckdb's external sources, a source whose
// meta.external_location names files ({name} filled in, a path relative to
// the project) or a read_csv call, are read from them.
func TestShapeExternalSources(t *testing.T) {
	files := shapeProject("ext", map[string]string{
		"data/people.csv": "id,name\n1,a\n2,b\n",
		"data/other.csv":  "id\n7\n",
		"models/sources.yml": "version: 2\nsources:\n  - name: files\n    meta:\n      external_location: \"data/{name}.csv\"\n    tables:\n      - name: people\n" +
			"      - name: other\n        meta:\n          external_location: \"read_csv('{{ project_root }}/data/other.csv', header = true)\"\n",
		"models/m.sql": "{{ config(materialized='table') }}\nselect * from {{ source('files', 'people') }} union all select id, 'x' from {{ source('files', 'other') }}",
	})
	dir := writeProbe(t, files)
	files["models/sources.yml"] = strings.ReplaceAll(files["models/sources.yml"], "{{ project_root }}", dir)
	writeFile(t, dir+"/models/sources.yml", []byte(files["models/sources.yml"]))
	db := shapeDB(t, dir)
	shapeRun(t, db, dir, "run", nil)
	if n := countRows(t, db, "test_schema.m"); n != 3 {
		t.Errorf("m: %d rows, want 3 (2 from data/people.csv, 1 from data/other.csv)", n)
	}
}

// TestExternalSourceTestsRun: the tests of an external source run in a
// `test` that builds nothing (dbt-duckdb's test_sources: 2 of 2 pass); they
// were skipped as reading a relation "which does not exist yet" (the file
// name was looked up as a table).
func TestExternalSourceTestsRun(t *testing.T) {
	files := shapeProject("ext", map[string]string{
		"data/people.csv": "id,name\n1,a\n2,b\n",
		"models/sources.yml": "version: 2\nsources:\n  - name: files\n    meta:\n      external_location: \"data/{name}.csv\"\n    tables:\n      - name: people\n" +
			"        columns:\n          - name: id\n            tests: [unique, not_null]\n",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	rr := shapeRun(t, db, dir, "test", nil)
	got := resultsByName(rr)
	if len(got) != 2 {
		t.Fatalf("test: %d results, want 2", len(got))
	}
	for name, r := range got {
		if r.Status != StatusPass {
			t.Errorf("%s: %s %s, want pass", name, r.Status, r.Message)
		}
	}
}

// TestShapeConfigMethods: config.get (the model's config(), then its YAML,
// then dbt_project.yml; dbt's default materialization), config.meta_get and
// set_sql_header (applied: not warned) render as in dbt.
func TestShapeConfigMethods(t *testing.T) {
	files := shapeProject("cfg", map[string]string{
		"models/m.sql": "{{ config(materialized='table', meta={'owner': 'ann'}) }}\n{% call set_sql_header(config) %}set timezone = 'UTC';{% endcall %}\n" +
			"select '{{ config.get('materialized') }}' as mat, '{{ config.get('nope', 'dflt') }}' as d, '{{ config.meta_get('owner') }}' as o, '{{ config.get('tags') }}' as tags",
		"models/v.sql":      "select '{{ config.get('materialized') }}' as mat",
		"models/schema.yml": "version: 2\nmodels:\n  - name: m\n    config:\n      tags: [t1]\n",
	})
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatal(d)
	}
	if c := m.Nodes["model.cfg.m"].CompiledCode; !strings.Contains(c, "'table' as mat, 'dflt' as d, 'ann' as o, '['t1']' as tags") {
		t.Errorf("m: %s", c)
	}
	if c := m.Nodes["model.cfg.v"].CompiledCode; !strings.Contains(c, "'view' as mat") {
		t.Errorf("v: %s", c)
	}
	for _, w := range m.Warnings {
		if strings.Contains(w.Msg, "sql_header") {
			t.Errorf("sql_header is applied, yet warned: %s", w)
		}
	}
}
