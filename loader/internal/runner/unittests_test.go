package runner

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// unitProject is a small dbt project with unit tests in each fixture
// format, overrides, a failing one and mistakes.
var unitProject = map[string]string{
	"dbt_project.yml":               "name: shop\nversion: '1'\nconfig-version: 2\nprofile: p\n",
	"profiles.yml":                  "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: shop.duckdb}\n",
	"seeds/raw_orders.csv":          "id,customer_id,amount,ordered_at\n1,1,50,2024-01-01\n2,1,150,2024-01-02\n3,2,20,2024-01-03\n",
	"seeds/raw_customers.csv":       "id,name\n1,Ann\n2,Bob\n",
	"models/staging/sources.yml":    "version: 2\nsources:\n  - name: shop\n    schema: main\n    tables:\n      - name: raw_customers\n",
	"models/staging/stg_orders.sql": "select id as order_id, customer_id, amount, cast(ordered_at as date) as ordered_at from {{ ref('raw_orders') }}",
	"models/marts/orders.sql": "{{ config(materialized='incremental', unique_key='order_id') }}\n" +
		"with o as (select * from {{ ref('stg_orders') }}), c as (select * from {{ source('shop', 'raw_customers') }})\n" +
		"select o.order_id, c.name as customer, o.amount, o.amount > {{ var('big', 100) }} as is_big, o.ordered_at\n" +
		"from o join c on o.customer_id = c.id\n" +
		"{% if is_incremental() %}where o.ordered_at > (select max(ordered_at) from {{ this }}){% endif %}",
	"models/marts/flaky.sql":       "select order_id, amount * 2 as doubled from {{ ref('stg_orders') }}",
	"models/marts/named.sql":       "select o.order_id, c.name from {{ ref('stg_orders') }} o join {{ ref('raw_customers') }} c on o.customer_id = c.id",
	"models/marts/stamped.sql":     "select {{ dbt.current_timestamp() }} as stamped_at",
	"tests/fixtures/customers.csv": "id,name\n1,Ann\n2,\n",
	"models/marts/orders.yml": `version: 2
unit_tests:
  - name: dict_rows
    model: orders
    config: {tags: [units]}
    given:
      - input: ref('stg_orders')
        rows:
          - {order_id: 1, customer_id: 1, amount: 50}
          - {order_id: 2, customer_id: 2, amount: 150.5}
      - input: source('shop', 'raw_customers')
        rows:
          - {id: 1, name: "O'Neil"}
          - {id: 2, name: Bob}
    expect:
      rows:
        - {order_id: 1, customer: "O'Neil", is_big: false}
        - {order_id: 2, customer: Bob, is_big: true}
  - name: csv_rows
    model: orders
    given:
      - input: ref('stg_orders')
        format: csv
        rows: |
          order_id,customer_id,amount,ordered_at
          1,1,5,2024-01-01
          2,2,,2024-01-02
      - input: source('shop', 'raw_customers')
        format: csv
        fixture: customers
    expect:
      format: csv
      rows: |
        order_id,customer,amount,ordered_at
        1,Ann,5,2024-01-01
        2,,,2024-01-02
  - name: sql_rows_and_overrides
    model: orders
    overrides:
      vars: {big: 10}
      macros: {is_incremental: true}
    given:
      - input: ref('stg_orders')
        format: sql
        rows: |
          select 1 as order_id, 1 as customer_id, 20 as amount, date '2024-01-05' as ordered_at
          union all select 2, 1, 5, date '2024-01-01'
      - input: source('shop', 'raw_customers')
        rows: [{id: 1, name: Ann}]
      - input: this
        rows: [{ordered_at: 2024-01-03}]
    expect:
      format: sql
      rows: select 1 as order_id, true as is_big
  - name: seed_not_given
    model: named
    given:
      - input: ref('stg_orders')
        rows: [{order_id: 7, customer_id: 2}]
    expect:
      rows: [{order_id: 7, name: Bob}]
  - name: namespaced_override
    model: stamped
    overrides:
      macros: {dbt.current_timestamp: "timestamp '2024-01-01 10:00:00'"}
    given: []
    expect:
      rows: [{stamped_at: "2024-01-01 10:00:00"}]
  - name: empty_expect
    model: orders
    given:
      - input: ref('stg_orders')
        rows: []
      - input: source('shop', 'raw_customers')
        rows: [{id: 1, name: Ann}]
    expect:
      rows: []
`,
	"models/marts/flaky.yml": `version: 2
unit_tests:
  - name: doubles_wrong
    model: flaky
    given:
      - input: ref('stg_orders')
        rows: [{order_id: 1, amount: 2}, {order_id: 2, amount: 3}]
    expect:
      rows: [{order_id: 1, doubled: 4}, {order_id: 2, doubled: 5}]
  - name: unknown_column
    model: flaky
    given:
      - input: ref('stg_orders')
        rows: [{order_id: 1}]
    expect:
      rows: [{order_id: 1, tripled: 3}]
`,
}

// TestUnitTests: dbt 1.8 unit tests run in build before their model, on
// fixture rows (dict, csv inline and from tests/fixtures, sql) with
// vars/macros overrides (dbt.current_timestamp too) and `this`, a seed not given read as it is; a failing one shows the differing
// rows and skips its model; they select with test_type:unit and land in
// run_results.json and manifest.json's unit_tests.
func TestUnitTests(t *testing.T) {
	dir := writeProbe(t, unitProject)
	m, diags := parseProbe(t, dir)
	for _, d := range diags {
		t.Fatalf("parse: %s", d)
	}
	for _, w := range m.Warnings {
		if strings.Contains(w.Msg, "unit_tests") {
			t.Errorf("unit tests are acted on, yet warned: %s", w)
		}
	}
	units, err := m.Select([]string{"test_type:unit"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(units) != 8 {
		t.Errorf("test_type:unit selects %v, want the 8 unit tests", units)
	}
	tagged, _ := m.Select([]string{"tag:units"}, nil)
	if !reflect.DeepEqual(tagged, []string{"unit_test.shop.orders.dict_rows"}) {
		t.Errorf("tag:units selects %v", tagged)
	}
	withModel, _ := m.Select([]string{"flaky"}, nil, compiler.Model, compiler.Test, compiler.UnitTest)
	if len(withModel) != 3 {
		t.Errorf("selecting flaky picks its unit tests too (eager): %v", withModel)
	}
	_, rr := buildProbe(t, m)
	got := resultsByName(rr)
	for name, want := range map[string]string{"dict_rows": executor.StatusPass, "csv_rows": executor.StatusPass, "sql_rows_and_overrides": executor.StatusPass,
		"empty_expect": executor.StatusPass, "seed_not_given": executor.StatusPass, "namespaced_override": executor.StatusPass, "orders": executor.StatusSuccess, "doubles_wrong": executor.StatusFail, "unknown_column": executor.StatusError, "flaky": executor.StatusSkipped} {
		if got[name].Status != want {
			t.Errorf("%s: %s %q, want %s", name, got[name].Status, got[name].Message, want)
		}
	}
	index := map[string]int{}
	for i, r := range rr.Results {
		index[r.Name] = i
	}
	if index["dict_rows"] > index["orders"] || index["stg_orders"] > index["dict_rows"] {
		t.Errorf("a unit test runs after its model's parents and before its model: %v", index)
	}
	bad := got["doubles_wrong"]
	if bad.Failures == nil || *bad.Failures != 2 || !strings.Contains(bad.Message, "1 row returned but not expected (+), 1 row expected but not returned (-)") {
		t.Errorf("doubles_wrong: %v %q", bad.Failures, bad.Message)
	}
	if s := bad.Sample; s == nil || !reflect.DeepEqual(s.Columns, []string{"diff", "order_id", "doubled"}) ||
		!reflect.DeepEqual(s.Rows, [][]string{{"+", "2", "6"}, {"-", "2", "5"}}) {
		t.Errorf("doubles_wrong sample: %+v", bad.Sample)
	}
	if msg := got["unknown_column"].Message; !strings.Contains(msg, `column "tripled" is not in the model's output (its columns: order_id, doubled)`) ||
		!strings.HasPrefix(msg, "models/marts/flaky.yml:10:5:") {
		t.Errorf("unknown_column: %q", msg)
	}
	if !strings.Contains(got["flaky"].Message, "unit_test doubles_wrong failed") {
		t.Errorf("flaky: %q", got["flaky"].Message)
	}
	if err := executor.WriteArtifacts(m, filepath.Join(dir, "target"), rr); err != nil {
		t.Fatal(err)
	}
	validateTarget(t, filepath.Join(dir, "target"))
	doc := m.ManifestDoc()
	if len(doc.UnitTests) != 8 || doc.Nodes["unit_test.shop.orders.dict_rows"] != nil || doc.UnitTests["unit_test.shop.orders.dict_rows"] == nil {
		t.Errorf("manifest.json: %d unit tests, want them in unit_tests only", len(doc.UnitTests))
	}
}

// TestUnitTestMistakes: a unit test of a model that does not exist, an
// input that is not declared, a bad format and versions: on a model
// without versions (dbt's ParsingError) are parse errors at the
// entry's line; a model input the test does not give is an error naming it.
func TestUnitTestMistakes(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"models/m/b.sql": "select * from {{ ref('a') }} join {{ ref('c') }} using (id)",
		"models/m/c.sql": "select 1 as id",
		"models/m/u.yml": "version: 2\nunit_tests:\n" +
			"  - {name: no_model, model: nope, given: [], expect: {rows: []}}\n" +
			"  - {name: no_source, model: a, given: [{input: \"source('x', 'y')\", rows: []}], expect: {rows: []}}\n" +
			"  - {name: bad_format, model: a, given: [], expect: {format: xml, rows: []}}\n" +
			"  - {name: typo, model: a, given: [], expected: {rows: []}, expect: {rows: [{id: 1}], colour: red}}\n" +
			"  - {name: not_versioned, model: a, versions: {include: [2]}, given: [], expect: {rows: []}}\n",
	})
	m, diags := parseProbe(t, dir)
	var warns []string
	for _, w := range m.Warnings {
		warns = append(warns, w.String())
	}
	wantWarns := []string{
		`models/m/u.yml:6:5: unit test typo: expect: key "colour" is read but not applied by docket`,
		`models/m/u.yml:6:5: unit test typo: key "expected" is read but not applied by docket`,
	}
	if !reflect.DeepEqual(warns, wantWarns) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warns, "\n"), strings.Join(wantWarns, "\n"))
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	want := []string{
		`models/m/u.yml:3:5: unit test no_model: model "nope" does not exist`,
		`models/m/u.yml:4:5: unit test no_source: given input source('x', 'y') is not a declared source`,
		`models/m/u.yml:5:5: unit test bad_format: expect rows: format "xml" (docket reads dict, csv and sql)`,
		`models/m/u.yml:7:5: unit test not_versioned: versions: include/exclude, but model a has no versions`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	dir = writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"models/m/b.sql": "select * from {{ ref('a') }} join {{ ref('c') }} using (id)",
		"models/m/c.sql": "select 1 as id",
		"models/m/u.yml": "version: 2\nunit_tests:\n" +
			"  - {name: missing_input, model: b, given: [{input: \"ref('a')\", rows: [{id: 1}]}], expect: {rows: [{id: 1}]}}\n",
	})
	m, diags = parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	_, rr := buildProbe(t, m)
	r := resultsByName(rr)["missing_input"]
	if r.Status != executor.StatusError || !strings.Contains(r.Message, "model b reads ref('c'), which the unit test does not give") {
		t.Errorf("missing_input: %s %q", r.Status, r.Message)
	}
}
