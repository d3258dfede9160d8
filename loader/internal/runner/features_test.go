package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// featureRow is one row of the README's dbt feature table.
type featureRow struct {
	feature, status, probe string
	names                  []string // the backticked names in the feature cell
}

var backticked = regexp.MustCompile("`([^`]+)`")

// readFeatureTable parses the table between the dbt-features markers of
// the README.
func readFeatureTable(t *testing.T) []featureRow {
	t.Helper()
	b, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, "<!-- dbt-features:begin -->"), strings.Index(s, "<!-- dbt-features:end -->")
	if i < 0 || j < i {
		t.Fatal("README.md has no dbt-features table")
	}
	var rows []featureRow
	for _, l := range strings.Split(s[i:j], "\n") {
		cells := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
		if len(cells) != 3 || strings.HasPrefix(strings.TrimSpace(cells[0]), "---") || strings.TrimSpace(cells[1]) == "docket" {
			continue
		}
		r := featureRow{feature: strings.TrimSpace(cells[0]), status: strings.TrimSpace(cells[1]),
			probe: strings.Trim(strings.TrimSpace(cells[2]), "`")}
		for _, g := range backticked.FindAllStringSubmatch(r.feature, -1) {
			r.names = append(r.names, g[1])
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		t.Fatal("the README's dbt-features table has no rows")
	}
	return rows
}

// featureProbe is a small project that shows one table row true.
type featureProbe struct {
	files map[string]string
	build bool // run `build` and require every node to pass
	// check, when set, looks at the parsed (and built) project.
	check func(t *testing.T, m *compiler.Manifest, dir string) error
	// dir, when set, gives the project folder instead of files.
	dir func(t *testing.T) string
}

const probeProject = "version: 1\nname: probe\n"

var featureProbes = map[string]featureProbe{
	"dbt-project": {build: true, files: map[string]string{
		"dbt_project.yml":       "name: shop\nversion: '1'\nconfig-version: 2\nprofile: p\nmodel-paths: [transform]\nvars: {n: 2}\nmodels:\n  shop:\n    marts:\n      +materialized: table\n",
		"profiles.yml":          "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: shop.duckdb, schema: analytics}\n",
		"transform/marts/m.sql": "select {{ var('n') }} as n",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		if n := m.Nodes["model.shop.m"]; n == nil || n.Config.Materialized != "table" || n.Schema != "analytics" {
			return fmt.Errorf("model.shop.m: %+v", n)
		}
		return nil
	}},
	"materializations": {build: true, files: map[string]string{
		"models/m/v.sql": "{{ config(materialized='view') }} select 1 as id",
		"models/m/t.sql": "{{ config(materialized='table') }} select * from {{ ref('e') }}",
		"models/m/i.sql": "{{ config(materialized='incremental') }} select * from {{ ref('v') }}",
		"models/m/e.sql": "{{ config(materialized='ephemeral') }} select 2 as id",
	}},
	"incremental": {build: true, files: map[string]string{
		"models/m/a.sql": "{{ config(materialized='incremental', incremental_strategy='append') }} select 1 as id",
		"models/m/d.sql": "{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key='id') }} select 1 as id",
		"models/m/g.sql": "{{ config(materialized='incremental', incremental_strategy='merge', unique_key='id', on_schema_change='append_new_columns') }} select 1 as id",
	}},
	"seeds": {build: true, files: map[string]string{
		"seeds/codes.csv":  "code,label\n01,a\n",
		"seeds/seeds.yml":  "version: 2\nseeds:\n  - name: codes\n    config:\n      column_types: {code: varchar}\n",
		"models/m/use.sql": "select * from {{ ref('codes') }} where code = '01'",
	}},
	"snapshots": {build: true, files: map[string]string{
		"models/m/src.sql": "{{ config(materialized='table') }} select 1 as id, 'a' as v, current_timestamp as ts",
		"snapshots/s.sql": "{% snapshot s_check %}{{ config(unique_key='id', strategy='check', check_cols='all', hard_deletes='invalidate') }}select * from {{ ref('src') }}{% endsnapshot %}\n" +
			"{% snapshot s_time %}{{ config(unique_key='id', strategy='timestamp', updated_at='ts') }}select * from {{ ref('src') }}{% endsnapshot %}",
	}},
	"sources": {files: map[string]string{
		"models/sources.yml": "version: 2\nsources:\n  - name: raw\n    schema: raw\n    freshness: {warn_after: {count: 1, period: day}}\n    loaded_at_field: ts\n    tables: [{name: events}, {name: old, config: {enabled: false}}]\n",
		"models/m/e.sql":     "select * from {{ source('raw', 'events') }}",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		if len(m.Sources) != 1 || m.Disabled["source.probe.raw.old"] == nil {
			return fmt.Errorf("sources %d, disabled %v: raw.old should be disabled", len(m.Sources), m.Disabled)
		}
		return nil
	}},
	"generic-tests": {build: true, files: map[string]string{
		"models/m/p.sql": "{{ config(materialized='table') }} select 1 as id, 'a' as kind",
		"models/m/c.sql": "{{ config(materialized='table') }} select 1 as id, 1 as p_id",
		"models/m/schema.yml": "version: 2\nmodels:\n  - name: p\n    columns:\n      - name: id\n        tests: [unique, not_null]\n      - name: kind\n        tests:\n          - accepted_values: {values: [a, b]}\n" +
			"  - name: c\n    columns:\n      - name: p_id\n        tests:\n          - relationships: {to: \"ref('p')\", field: id}\n",
	}},
	"custom-tests": {build: true, files: map[string]string{
		"models/m/p.sql":          "{{ config(materialized='table') }} select 1 as id",
		"macros/positive.sql":     "{% test positive(model, column_name) %}select * from {{ model }} where {{ column_name }} <= 0{% endtest %}",
		"tests/generic/small.sql": "{% test small(model, column_name, below=10) %}select * from {{ model }} where {{ column_name }} >= {{ below }}{% endtest %}",
		"tests/no_rows.sql":       "select * from {{ ref('p') }} where id is null",
		"models/m/schema.yml":     "version: 2\nmodels:\n  - name: p\n    columns:\n      - name: id\n        tests: [positive, {small: {below: 5}}]\n",
	}},
	"jinja": {build: true, files: map[string]string{
		"macros/m.sql": "{% macro twice(x) %}{{ return(x * 2) }}{% endmacro %}\n" +
			"{% macro greet() %}{{ return(adapter.dispatch('greet')()) }}{% endmacro %}\n" +
			"{% macro default__greet() %}'default'{% endmacro %}\n{% macro duckdb__greet() %}'duckdb'{% endmacro %}",
		"models/m/j.sql": "{{ config(materialized='incremental') }}\nselect {{ twice(2) }} as four, {{ greet() }} as who, {{ dbt.date_trunc('day', 'current_timestamp') }} as d,\n" +
			"'{{ var('v', 'x') }}' as v, '{{ env_var('DOCKET_PROBE_UNSET', 'dflt') }}' as e, '{{ this }}' as me\n{% if is_incremental() %}where false{% endif %}",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		c := m.Nodes["model.probe.j"].CompiledCode
		for _, want := range []string{"4 as four", "'duckdb' as who", "date_trunc('day', current_timestamp)", "'dflt' as e"} {
			if !strings.Contains(c, want) {
				return fmt.Errorf("compiled j lacks %q:\n%s", want, c)
			}
		}
		return nil
	}},
	"jinja-context": {build: true, files: map[string]string{
		"models/m/c.sql": "{{ config(materialized='table') }}\nselect '{{ database }}.{{ schema }}.{{ model.name }}' as at, length('{{ invocation_id }}') as n,\n" +
			"'{{ run_started_at.strftime(\"%Y\") }}{{ config.get(\"materialized\") }}' as y, '{{ tojson(fromjson(\"[1]\")) }}{{ fromyaml(\"a: 1\")[\"a\"] }}' as j, '{{ toyaml({}) | trim }}{{ local_md5(\"\") }}' as h, '{{ dbt_version }}' as dv",
		"models/m/s.yml": "version: 2\nsources:\n  - name: raw\n    schema: \"{{ target.schema }}\"\n    tables:\n      - name: t\n        identifier: \"{{ var('t', 'c') }}\"\n" +
			"models:\n  - name: c\n    config:\n      tags: \"{{ 'x' }}\"\n",
	}, check: func(t *testing.T, m *Manifest, dir string) error {
		if c := m.Nodes["model.probe.c"].CompiledCode; !strings.Contains(c, "'warehouse.m.c' as at") || !strings.Contains(c, "'[1]1'") || !strings.Contains(c, "table' as y") || !strings.Contains(c, "'1.8.0' as dv") {
			return fmt.Errorf("compiled c: %s", c)
		}
		if s := m.Sources["source.probe.raw.t"]; s == nil || s.Relation != "main.c" {
			return fmt.Errorf("source raw.t: %+v", s)
		}
		return nil
	}},
	"adapter-methods": {build: true, files: map[string]string{
		"models/m/a.sql": "{% if execute %}{% set r = api.Relation.create(schema='scratch', identifier='v') %}{% do adapter.create_schema(r) %}" +
			"{% do run_query(create_view_as(r, 'select 1 as id')) %}{% do adapter.rename_relation(r, api.Relation.create(schema='scratch', identifier='w')) %}" +
			"{% do adapter.drop_schema(r) %}{% endif %}select {{ adapter.check_schema_exists(database, 'scratch') }} as still_there",
	}},
	"external-sources": {build: true, files: map[string]string{
		"data/t.csv":     "id\n1\n",
		"models/m/s.yml": "version: 2\nsources:\n  - name: files\n    config:\n      external_location: \"data/{name}.csv\"\n    tables:\n      - name: t\n",
		"models/m/x.sql": "{{ config(materialized='table') }} select * from {{ source('files', 't') }}",
	}},
	"source-keys": {build: true, files: map[string]string{
		"models/m/s.yml": "version: 2\nsources:\n  - name: raw\n    schema: main\n    quoting: {identifier: true}\n    overrides: x\n    tables:\n      - name: t\n" +
			"        external: {location: x}\n        loaded_at_query: select 1\n",
		"models/m/x.sql": "select 1 as id",
	}},
	"packages": {files: map[string]string{
		"dbt_packages/tools/dbt_project.yml": "name: tools\nversion: '1'\nconfig-version: 2\n",
		"dbt_packages/tools/macros/t.sql":    "{% macro one() %}1{% endmacro %}",
		"models/m/p.sql":                     "select {{ tools.one() }} as one",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		if c := m.Nodes["model.probe.p"].CompiledCode; !strings.Contains(c, "1 as one") {
			return fmt.Errorf("compiled p: %s", c)
		}
		return nil
	}},
	"schema-names": {files: map[string]string{
		"macros/g.sql":   "{% macro generate_schema_name(custom_schema_name, node) %}custom_{{ node.name }}{% endmacro %}\n{% macro generate_alias_name(custom_alias_name, node) %}t_{{ node.name }}{% endmacro %}",
		"models/m/p.sql": "select 1 as id",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		if n := m.Nodes["model.probe.p"]; n.Schema != "custom_p" || n.Alias != "t_p" {
			return fmt.Errorf("p lands in %s.%s, want custom_p.t_p", n.Schema, n.Alias)
		}
		return nil
	}},
	"docs-blocks": {files: map[string]string{
		"models/docs.md":      "{% docs facts %}\nOne row per fact.\n{% enddocs %}\n{% docs fact_id %}The key.{% enddocs %}",
		"models/m/f.sql":      "select 1 as id",
		"models/m/schema.yml": "version: 2\nmodels:\n  - name: f\n    description: '{{ doc(\"facts\") }}'\n    columns:\n      - name: id\n        description: \"{{ doc('fact_id') }} ({{ var('unit', 'n') }})\"\n",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		n := m.Nodes["model.probe.f"]
		if n.Description != "One row per fact." || n.Columns["id"].Description != "The key. (n)" {
			return fmt.Errorf("descriptions %q / %q", n.Description, n.Columns["id"].Description)
		}
		if b := m.ManifestDoc().Docs["doc.probe.facts"]; b == nil || b["block_contents"] != "One row per fact." {
			return fmt.Errorf("manifest docs: %v", m.ManifestDoc().Docs)
		}
		os.WriteFile(filepath.Join(dir, "models/m/schema.yml"), []byte("version: 2\nmodels:\n  - name: f\n    description: '{{ doc(\"nope\") }}'\n"), 0o644)
		if _, diags := parseProbe(t, dir); len(diags) != 1 || diags[0].Line != 4 || !strings.Contains(diags[0].Msg, "nope") {
			return fmt.Errorf("an unknown doc() should be one error at its line: %v", diags)
		}
		return nil
	}},
	"selection": {files: map[string]string{
		"models/m/a.sql": "{{ config(materialized='table', tags=['t'], group='g') }} select 1 as id",
		"models/m/b.sql": "select * from {{ ref('a') }}",
		"models/m/c.sql": "select * from {{ ref('b') }}",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		for sel, want := range map[string]int{"m": 3, "path:models/m/a.sql": 1, "tag:t": 1, "a+": 3, "1+c": 2, "a+1": 2, "@b": 3, "config.materialized:table": 1, "group:g": 1} {
			ids, err := m.Select([]string{sel}, nil, compiler.Model)
			if err != nil || len(ids) != want {
				return fmt.Errorf("-s %s: %v %v, want %d nodes", sel, ids, err, want)
			}
		}
		return nil
	}},
	"artifacts": {build: true, files: map[string]string{
		"models/m/a.sql":      "{{ config(materialized='table') }} select 1 as id",
		"models/m/schema.yml": "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        tests: [unique]\n",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		if artifactSchemas(t) == nil {
			t.Log("../shared/dbt/schemas is absent: artifacts not validated")
		}
		validateTarget(t, filepath.Join(dir, "target"))
		var ids [2]string
		for i, f := range []string{"manifest.json", "run_results.json"} {
			var doc struct {
				Metadata struct {
					InvocationID string `json:"invocation_id"`
				} `json:"metadata"`
			}
			b, _ := os.ReadFile(filepath.Join(dir, "target", f))
			json.Unmarshal(b, &doc)
			ids[i] = doc.Metadata.InvocationID
		}
		if ids[0] == "" || ids[0] != ids[1] {
			return fmt.Errorf("manifest and run_results should share the run's invocation_id: %q %q", ids[0], ids[1])
		}
		return nil
	}},
	"empty": {files: map[string]string{
		"models/m/a.sql": "{{ config(materialized='table') }} select 1 as id",
		"models/m/b.sql": "{{ config(materialized='table') }} select * from {{ ref('a') }} as a",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		db := shapeDB(t, dir)
		rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "build", Threads: 1, Empty: true})
		if err != nil || rr.Failed() {
			return fmt.Errorf("build --empty: %v %+v", err, rr)
		}
		if a, b := countRows(t, db, "m.a"), countRows(t, db, "m.b"); a != 1 || b != 0 {
			return fmt.Errorf("build --empty: a %d rows (its SQL reads no ref), b %d; want 1 and 0", a, b)
		}
		return nil
	}},
	"yaml-kept": {build: true, files: map[string]string{
		"models/m/a.sql": "select 1 as id",
		"models/m/schema.yml": "version: 2\nexposures:\n  - {name: e, type: dashboard, owner: {name: x}}\ngroups:\n  - {name: g, owner: {name: x}}\n" +
			"metrics:\n  - {name: mt, label: M, type: simple, type_params: {measure: n}}\nsaved_queries:\n  - {name: q, query_params: {metrics: [mt], group_by: []}}\n" +
			"semantic_models:\n  - {name: sm, model: \"ref('a')\"}\n" +
			"macros:\n  - name: mac\n    description: documented\n    arguments: [{name: x, type: int, description: a number}]\n",
		"macros/mac.sql": "{% macro mac(x) %}{{ x }}{% endmacro %}",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		d := m.ManifestDoc()
		if len(d.Exposures)+len(d.Groups)+len(d.Metrics)+len(d.SavedQueries)+len(d.SemanticModels) != 5 {
			return fmt.Errorf("manifest keeps %d/%d/%d/%d/%d, want one of each", len(d.Exposures), len(d.Groups),
				len(d.Metrics), len(d.SavedQueries), len(d.SemanticModels))
		}
		if mac := d.Macros["macro.probe.mac"]; mac["description"] != "documented" || len(mac["arguments"].([]any)) != 1 {
			return fmt.Errorf("macro docs not patched: %v", mac)
		}
		return nil
	}},
	"unit-tests": {build: true, files: map[string]string{
		"models/m/a.sql": "select id, id * {{ var('k', 2) }} as twice from {{ ref('b') }}",
		"models/m/b.sql": "select 1 as id",
		"models/m/u.yml": "version: 2\nunit_tests:\n  - name: u\n    model: a\n    overrides: {vars: {k: 3}}\n" +
			"    given: [{input: \"ref('b')\", format: csv, rows: \"id\\n5\\n\"}]\n    expect: {rows: [{id: 5, twice: 15}]}\n",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		if ids, _ := m.Select([]string{"test_type:unit"}, nil); len(ids) != 1 {
			return fmt.Errorf("test_type:unit selects %v", ids)
		}
		return nil
	}},
	"yaml-read": {build: true, files: map[string]string{
		"models/m/a.sql": "select 1 as id",
		"models/m/schema.yml": "version: 2\nanalyses:\n  - {name: x}\n" +
			"data_tests:\n  - {name: w}\ntests:\n  - {name: v}\nfunctions:\n  - {name: f}\n",
	}},
	"on-run": {build: true, files: map[string]string{
		"dbt_project.yml": "name: probe\nversion: '1'\nconfig-version: 2\n" +
			"on-run-start: [\"create table if not exists {{ target.schema }}.hook_log (stage varchar)\", \"insert into {{ target.schema }}.hook_log values ('start')\"]\n" +
			"on-run-end: [\"insert into {{ target.schema }}.hook_log values ('end')\"]\n",
		"models/m/a.sql": "{{ config(materialized='table') }}\nselect count(*) as n from {{ target.schema }}.hook_log where stage = 'start'",
		"profiles.yml":   "probe:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: probe.duckdb}\n",
	}, check: func(t *testing.T, m *Manifest, dir string) error {
		p, err := project.Load(dir)
		if err != nil {
			return err
		}
		db, err := warehouse.Open(context.Background(), p.Warehouse, warehouse.Options{})
		if err != nil {
			return err
		}
		defer db.Close()
		var got string
		if err := db.SQL().QueryRow("select string_agg(stage, ',' order by stage desc) from main.hook_log").Scan(&got); err != nil || got != "start,end" {
			return fmt.Errorf("hook_log: %q %v, want the on-run-start row, then the on-run-end row", got, err)
		}
		return nil
	}},
	"run-query": {build: true, files: map[string]string{
		"models/m/a.sql": "{{ config(materialized='table') }} select 1 as id, 'x' as kind union all select 2, 'y'",
		"models/m/b.sql": "{{ config(materialized='table') }}\n" +
			"{% set r = run_query('select max(id) as top from ' ~ ref('a')) %}\n" +
			"{% call statement('kinds', fetch_result=True) %}select kind from {{ ref('a') }} order by kind{% endcall %}\n" +
			"{% set cols = adapter.get_columns_in_relation(ref('a')) %}\n" +
			"{% set there = adapter.get_relation(database=this.database, schema=this.schema, identifier='a') %}\n" +
			"select {{ r.columns[0].values()[0] if execute else 0 }} as top,\n" +
			"  '{{ load_result('kinds')['data'] | map(attribute=0) | join(',') if execute }}' as kinds,\n" +
			"  '{{ cols | map(attribute='name') | join(',') }}' as cols,\n" +
			"  '{{ there.type if there }}' as there",
		// the values a run renders with its connection
		"tests/b_values.sql": "select * from {{ ref('b') }} where not (top = 2 and kinds = 'x,y' and cols = 'id,kind' and there = 'table')",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		if b := m.Nodes["model.probe.b"]; b == nil || !b.ReadsDatabase() || !strings.Contains(b.CompiledCode, "0 as top") {
			return fmt.Errorf("model b reads the database: parsed with execute=false (0 as top), rendered again at run time: %+v", b)
		}
		return nil
	}},
	"attach": {build: true, dir: func(t *testing.T) string {
		dir := writeProbe(t, map[string]string{
			"dbt_project.yml":    "name: probe\nversion: '1'\nconfig-version: 2\nprofile: p\n",
			"profiles.yml":       "p:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: probe.duckdb\n      attach:\n        - {path: crm.duckdb, read_only: true}\n",
			"models/sources.yml": "version: 2\nsources:\n  - name: crm\n    database: crm\n    schema: main\n    tables: [{name: people}]\n",
			"models/people.sql":  "{{ config(materialized='table') }} select * from {{ source('crm', 'people') }}",
			"tests/two.sql":      "select * from (select count(*) as n from {{ ref('people') }}) where n <> 2",
		})
		crm, err := warehouse.Open(context.Background(), filepath.Join(dir, "crm.duckdb"), warehouse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer crm.Close()
		if _, err := crm.SQL().Exec("create table people as select * from range(2) r(id)"); err != nil {
			t.Fatal(err)
		}
		return dir
	}},
	"profile-settings": {build: true, files: map[string]string{
		"dbt_project.yml": "name: probe\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml": "p:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: probe.duckdb\n" +
			"      settings: {TimeZone: Asia/Tokyo, preserve_insertion_order: false}\n",
		"tests/set.sql": "select 1 where current_setting('TimeZone') <> 'Asia/Tokyo' or current_setting('preserve_insertion_order')",
	}},
	"run-operation": {build: true, files: map[string]string{
		"models/m/a.sql": "{{ config(materialized='table') }} select 1 as id",
		"macros/ops.sql": "{% macro mark(label) %}{% do run_query('create table main.marked as select ' ~ \"'\" ~ label ~ \"'\" ~ ' as label, count(*) as n from ' ~ ref('a')) %}" +
			"{% do run_query('select * from main.marked').print_table() %}{% do run_query('select 1 as x').print_json() %}{% endmacro %}",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		db, err := warehouse.Open(context.Background(), m.Project.Warehouse, warehouse.Options{})
		if err != nil {
			return err
		}
		defer db.Close()
		op, err := m.FindOperation("mark")
		if err != nil {
			return err
		}
		rr, err := executor.RunOperation(context.Background(), m, db, op, map[string]any{"label": "x"})
		if err != nil || len(rr.Results) != 1 || rr.Results[0].Status != executor.StatusSuccess {
			return fmt.Errorf("run-operation mark: %v %+v", err, rr)
		}
		var got string
		if err := db.SQL().QueryRow("select label || n from main.marked").Scan(&got); err != nil || got != "x1" {
			return fmt.Errorf("main.marked: %q %v, want x1", got, err)
		}
		return nil
	}},
	"unbuilt-files": {files: map[string]string{
		"models/m/a.sql": "select 1 as id",
		"models/m/p.py":  "def model(dbt, session):\n    return dbt.ref('a')\n",
		"models/m/b.sql": "select * from {{ ref('p') }}",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		if len(m.Warnings) != 1 {
			return fmt.Errorf("the Python model should warn: %v", m.Warnings)
		}
		if p := m.Nodes["model.probe.p"]; p == nil || len(m.Parents["model.probe.b"]) != 1 {
			return fmt.Errorf("the Python model should be a node b depends on: %+v", p)
		}
		return nil
	}},
	"analyses": {build: true, files: map[string]string{
		"models/m/a.sql":    "select 1 as id",
		"analyses/x/q.sql":  "select * from {{ ref('a') }} where id = {{ var('n', 1) }}",
		"analyses/x/q2.sql": "select 2",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		q := m.Nodes["analysis.probe.q"]
		if q == nil || q.CompiledCode != "select * from m.a where id = 1" {
			return fmt.Errorf("analysis q: %+v", q)
		}
		if _, err := os.Stat(filepath.Join(dir, "target", "compiled", "probe", "analyses", "x", "q.sql")); err == nil {
			return fmt.Errorf("build wrote the analysis' SQL; only compile does, as dbt's")
		}
		return nil
	}},
	"show": {build: true, files: map[string]string{
		"models/m/e.sql": "{{ config(materialized='ephemeral') }} select 1 as id",
		"models/m/a.sql": "select * from {{ ref('e') }}",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		// docket show --inline: the SQL is compiled as dbt's inline_query
		// node, its ephemeral parents as CTEs (loader/internal/cli TestShow
		// runs the command)
		mi, diags, err := compiler.Parse(m.Project, compiler.ParseOptions{Owned: testOwned, Inline: "select id from {{ ref('a') }} join {{ ref('e') }} using (id)"})
		if err != nil || len(diags) > 0 {
			return fmt.Errorf("inline: %v %v", err, diags)
		}
		n := mi.Nodes[compiler.InlineID("probe")]
		if n == nil || !strings.Contains(n.CompiledCode, "__dbt__cte__e") || !strings.Contains(n.CompiledCode, "m.a") {
			return fmt.Errorf("inline node: %+v", n)
		}
		return nil
	}},
	"selectors-yml": {build: true, files: map[string]string{
		"models/m/a.sql": "select 1 as id",
		"models/m/b.sql": "{{ config(tags=['x']) }} select * from {{ ref('a') }}",
		"selectors.yml":  "selectors:\n  - name: s\n    default: true\n    definition:\n      union:\n        - method: tag\n          value: x\n          parents: true\n        - exclude: [{fqn: a}]\n",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		ids, err := m.SelectSelector(m.DefaultSelector, "eager", compiler.Model)
		if err != nil || len(ids) != 1 || ids[0] != "model.probe.b" {
			return fmt.Errorf("default selector %q selected %v (%v), want model.probe.b", m.DefaultSelector, ids, err)
		}
		return nil
	}},
	"custom-materialization": {build: true, files: map[string]string{
		"macros/mats.sql": "{% materialization mine, adapter='duckdb' %}{% call statement('main') %}{{ create_table_as(False, this, sql) }}{% endcall %}" +
			"{{ return({'relations': [this.incorporate(type='table')]}) }}{% endmaterialization %}\n{% macro one() %}1{% endmacro %}\n",
		"models/m/a.sql": "select {{ one() }} as id",
		"models/m/b.sql": "{{ config(materialized='mine') }} select 2 as id",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		if mat := m.Nodes["model.probe.b"].CustomMat; mat == nil || mat.Macro != "materialization_mine_duckdb" {
			return fmt.Errorf("b's materialization: %+v", mat)
		}
		return nil
	}},
	"hook-transactions": {build: true, files: map[string]string{
		"models/m/log.sql": "{{ config(materialized='table') }} select 'init' as step",
		"models/m/t.sql": "{{ config(materialized='table', pre_hook=[\"insert into {{ ref('log') }} values ('in')\", before_begin(\"insert into {{ ref('log') }} values ('out')\")]) }}\n" +
			"-- depends_on: {{ ref('log') }}\nselect 1 as id",
		"tests/order.sql": "-- depends_on: {{ ref('t') }}\nselect * from (select string_agg(step, ',' order by rowid) as s from {{ ref('log') }}) where s <> 'init,out,in'",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		if h := m.Nodes["model.probe.t"].Config.PreHook; len(h) != 2 || !h[0].Transaction || h[1].Transaction {
			return fmt.Errorf("t's pre-hooks: %+v", h)
		}
		return nil
	}},
	"duckdb-materializations": {build: true, files: map[string]string{
		"models/m/a.sql":  "{{ config(materialized='external', location='out/a.csv') }} select 1 as id",
		"models/m/tf.sql": "{{ config(materialized='table_function', parameters=['n']) }} select * from {{ ref('a') }} where id = n",
		"models/m/b.sql":  "select * from {{ ref('tf') }}(1)",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		if e := m.Nodes["model.probe.a"].Config.External; e == nil || e.Format != "csv" || !strings.HasSuffix(e.Path, "/out/a.csv") {
			return fmt.Errorf("a's external config: %+v", e)
		}
		return nil
	}},
	"model-versions": {build: true, files: map[string]string{
		"models/m/dim.sql":    "select 1 as id",
		"models/m/dim_v2.sql": "select 2 as id",
		"models/m/dim.yml":    "version: 2\nmodels:\n  - name: dim\n    latest_version: 1\n    versions:\n      - v: 1\n        defined_in: dim\n      - v: 2\n",
		"models/m/use.sql":    "select * from {{ ref('dim', v=2) }}",
	}},
	"package-models": {build: true, files: map[string]string{
		"project.yaml":                   probeProject + "models:\n  p:\n    off:\n      +enabled: false\n",
		"dbt_packages/p/dbt_project.yml": "name: p\nversion: '1'\nconfig-version: 2\nvars:\n  n: 2\n",
		"dbt_packages/p/models/dim.sql":  "select * from {{ ref('ids') }} where id <= {{ var('n') }}",
		"dbt_packages/p/models/dim.yml":  "version: 2\nmodels:\n  - name: dim\n    columns:\n      - name: id\n        tests: [unique]\n",
		"dbt_packages/p/models/off.sql":  "select 1 as id",
		"dbt_packages/p/seeds/ids.csv":   "id\n1\n2\n3\n",
		"models/m/use.sql":               "select * from {{ ref('p', 'dim') }}",
	}},
	"microbatch": {build: true, files: map[string]string{
		"models/m/src.sql": "{{ config(event_time='ts') }}\nselect 1 as id, timestamp '2024-01-01 10:00:00' as ts union all select 2, timestamp '2024-02-02 10:00:00'",
		"models/m/events.sql": "{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='ts', batch_size='month', begin='2024-01-01', lookback=2) }}\n" +
			"select *, '{{ model.batch.id }}' as batch from {{ ref('src') }}",
	}, check: func(t *testing.T, m *compiler.Manifest, dir string) error {
		db := shapeDB(t, dir)
		if s := shapeQuery(t, db)("select string_agg(id || ':' || batch, ' ' order by id) from m.events"); s != "1:20240101 2:20240201" {
			return fmt.Errorf("events: %s, want each row from its own month's batch", s)
		}
		return nil
	}},
	"package-rest": {files: map[string]string{
		"dbt_packages/p/dbt_project.yml":    "name: p\nversion: '1'\nconfig-version: 2\non-run-end: [\"select 1\"]\n",
		"dbt_packages/p/snapshots/snap.sql": "{% snapshot snap %}{{ config(strategy='check', unique_key='id', check_cols='all') }}select 1 as id{% endsnapshot %}",
		"dbt_packages/p/tests/t.sql":        "select 1 where false",
		"dbt_packages/p/models/py.py":       "def model(dbt, session):\n    return None\n",
		"models/m/use.sql":                  "select 1 as id",
	}},
	"dbt-utils": {build: true, dir: func(t *testing.T) string {
		src, _ := filepath.Abs("../../../../shared/dbt/dbt-utils")
		if _, err := os.Stat(filepath.Join(src, "integration_tests", "dbt_project.yml")); err != nil {
			t.Skip("../shared/dbt/dbt-utils is absent")
		}
		dir := filepath.Join(t.TempDir(), "dbt-utils")
		if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
			t.Fatalf("copy: %v %s", err, out)
		}
		return filepath.Join(dir, "integration_tests")
	}},
}

// TestREADMEFeatureTable keeps the README's dbt feature table true: every
// row names a probe; a supported probe parses (and builds) with no
// warning, a warned one warns and builds, a not-yet one warns or fails;
// config rows match the runner's appliedKeys / notApplied lists both
// ways, and each not-applied config warns when used.
func TestREADMEFeatureTable(t *testing.T) {
	rows := readFeatureTable(t)
	listed := map[string]string{}
	for _, r := range rows {
		switch r.status {
		case "supported", "warned", "not yet":
		default:
			t.Errorf("%q: status %q is not supported, warned or not yet", r.feature, r.status)
			continue
		}
		if r.probe == "configs" {
			for _, k := range r.names {
				listed[k] = r.status
			}
			continue
		}
		p, ok := featureProbes[r.probe]
		if !ok {
			t.Errorf("%q: no probe %q in features_test.go", r.feature, r.probe)
			continue
		}
		t.Run(r.probe, func(t *testing.T) { runFeatureProbe(t, r, p) })
	}
	for _, k := range compiler.SortedKeys(compiler.AppliedKeys) {
		if listed[k] != "supported" {
			t.Errorf("config %s is applied by the runner but the README lists it as %q", k, listed[k])
		}
	}
	for _, k := range compiler.SortedKeys(compiler.NotApplied) {
		if listed[k] != "warned" {
			t.Errorf("config %s is read, not applied, but the README lists it as %q", k, listed[k])
		}
	}
	for k := range listed {
		if !compiler.AppliedKeys[k] && !compiler.NotApplied[k] {
			t.Errorf("config %s is in the README but the runner does not know it", k)
		}
	}
	// each not-applied config, used in a model, is a warning naming it
	files := map[string]string{}
	keys := compiler.SortedKeys(compiler.NotApplied)
	for i, k := range keys {
		files[fmt.Sprintf("models/m/c%02d.sql", i)] = fmt.Sprintf("{{ config(%s='x') }} select 1 as id", k)
	}
	m, diags := parseProbe(t, writeProbe(t, files))
	for _, d := range diags {
		t.Errorf("config probe: %s", d)
	}
	for i, k := range keys {
		found := false
		for _, w := range m.Warnings {
			if w.Path == fmt.Sprintf("models/m/c%02d.sql", i) && strings.Contains(w.Msg, k) {
				found = true
			}
		}
		if !found {
			t.Errorf("config %s used in a model gave no warning naming it", k)
		}
	}
}

func writeProbe(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if _, ok := files["dbt_project.yml"]; !ok {
		writeFile(t, filepath.Join(dir, "project.yaml"), []byte(probeProject))
	}
	for f, b := range files {
		writeFile(t, filepath.Join(dir, f), []byte(b))
	}
	return dir
}

func parseProbe(t *testing.T, dir string) (*compiler.Manifest, []compiler.Diagnostic) {
	t.Helper()
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned})
	if err != nil {
		t.Fatal(err)
	}
	return m, diags
}

// probeWarnings writes files as a probe project and parses it (a
// diagnostic fails the test): its folder, its manifest and the warnings
// that contain substr ("" for all).
func probeWarnings(t *testing.T, files map[string]string, substr string) (string, *compiler.Manifest, []string) {
	t.Helper()
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var ws []string
	for _, w := range m.Warnings {
		if s := w.String(); strings.Contains(s, substr) {
			ws = append(ws, s)
		}
	}
	return dir, m, ws
}

func runFeatureProbe(t *testing.T, r featureRow, p featureProbe) {
	var dir string
	if p.dir != nil {
		dir = p.dir(t)
	} else {
		dir = writeProbe(t, p.files)
	}
	m, diags := parseProbe(t, dir)
	var warns []string
	for _, w := range m.Warnings {
		warns = append(warns, w.String())
	}
	sort.Strings(warns)
	switch r.status {
	case "supported":
		if len(diags)+len(warns) > 0 {
			t.Fatalf("supported, but the probe has diagnostics %v and warnings %v", diags, warns)
		}
	case "warned":
		if len(diags) > 0 || len(warns) == 0 {
			t.Fatalf("warned: the probe should warn and parse; diagnostics %v, warnings %v", diags, warns)
		}
		for _, n := range r.names {
			if k := strings.Fields(n)[0]; !strings.Contains(strings.Join(warns, "\n"), k) {
				t.Errorf("no warning names %s: %v", k, warns)
			}
		}
	case "not yet":
		if len(diags)+len(warns) == 0 {
			t.Fatalf("not yet, but the probe parses with no diagnostic and no warning: it would be silent (update the README?)")
		}
		if p.check != nil {
			if err := p.check(t, m, dir); err != nil {
				t.Error(err)
			}
		}
		return
	}
	if p.build && len(diags) == 0 {
		_, rr := buildProbe(t, m)
		if len(rr.Results) == 0 {
			t.Errorf("build ran nothing")
		}
		for _, x := range rr.Results {
			if x.Status != executor.StatusSuccess && x.Status != executor.StatusPass {
				t.Errorf("build: %s %s: %s", x.UniqueID, x.Status, x.Message)
			}
		}
		if err := executor.WriteArtifacts(m, filepath.Join(dir, "target"), rr); err != nil {
			t.Fatal(err)
		}
		validateTarget(t, filepath.Join(dir, "target"))
	}
	if p.check != nil {
		if err := p.check(t, m, dir); err != nil {
			t.Error(err)
		}
	}
}
