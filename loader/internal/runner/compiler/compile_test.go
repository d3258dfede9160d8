package compiler_test

import (
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"

	"reflect"
	"strings"
	"testing"
)

// TestCompileFromMapFS: parse, graph, compiled SQL, selection and the
// build plan of a project held in memory (fstest.MapFS), no database.
func TestCompileFromMapFS(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml":                  "version: 1\nname: mem\nmodels:\n  curated:\n    +materialized: table\n",
		"macros/cents.sql":              "{% macro cents(c) %}({{ c }} * 100)::int{% endmacro %}",
		"models/staging/stg_orders.sql": "select id, {{ cents('amount') }} as cents from {{ source('raw', 'orders') }}",
		"models/staging/sources.yml":    "version: 2\nsources:\n  - name: raw\n    tables:\n      - name: orders\n",
		"models/curated/totals.sql": "{{ config(tags=['daily']) }}\nselect sum(cents) as total from {{ ref('stg_orders') }}\n" +
			"cross join {{ ref('rates') }}",
		"models/curated/schema.yml": "version: 2\nmodels:\n  - name: totals\n    columns:\n      - name: total\n        tests: [not_null]\n",
		"seeds/rates.csv":           "rate\n1.5\n",
		"tests/positive.sql":        "select * from {{ ref('totals') }} where total < 0",
		".hidden/x.sql":             "not a model",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	ids := compiler.SortedKeys(m.Nodes)
	want := []string{"model.mem.stg_orders", "model.mem.totals", "seed.mem.rates", "test.mem.not_null_totals_total", "test.mem.positive"}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("nodes %v, want %v", ids, want)
	}
	tot := m.Nodes["model.mem.totals"]
	if tot.Config.Materialized != "table" || !reflect.DeepEqual(tot.Tags, []string{"daily"}) {
		t.Errorf("totals: materialized %q tags %v", tot.Config.Materialized, tot.Tags)
	}
	if !strings.Contains(tot.CompiledCode, "from curated.stg_orders") && !strings.Contains(tot.CompiledCode, "from staging.stg_orders") {
		t.Errorf("totals compiled to %q", tot.CompiledCode)
	}
	if !strings.Contains(tot.CompiledCode, "seeds.rates") {
		t.Errorf("the seed's ref compiled to %q", tot.CompiledCode)
	}
	if got := m.Nodes["model.mem.stg_orders"].CompiledCode; !strings.Contains(got, "(amount * 100)::int") || !strings.Contains(got, "raw.orders") {
		t.Errorf("stg_orders compiled to %q", got)
	}
	if got := m.Parents["model.mem.totals"]; !reflect.DeepEqual(got, []string{"model.mem.stg_orders", "seed.mem.rates"}) {
		t.Errorf("totals' parents %v", got)
	}
	sel, err := m.Select([]string{"+totals"}, nil, compiler.Model)
	if err != nil || !reflect.DeepEqual(sel, []string{"model.mem.stg_orders", "model.mem.totals"}) {
		t.Errorf("select +totals: %v %v", sel, err)
	}
	exec, deps, err := m.Plan("build", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(exec) != len(want) || !deps["test.mem.not_null_totals_total"]["model.mem.totals"] || !deps["model.mem.totals"]["seed.mem.rates"] {
		t.Errorf("build plan %v, deps %v", compiler.SortedKeys(exec), deps)
	}
}

// TestCompileMistakesFromMapFS: mistakes come back at once with the
// positions of the template parser's nodes: a ref in a Jinja comment is
// not the call (a regex over the text found the comment's), a ref inside
// a set block or written over several lines is placed at its name; a ref
// to a model disabled by a sub-folder's config is an error, not a bare
// table name; a model on a loader-owned table is refused.
func TestCompileMistakesFromMapFS(t *testing.T) {
	_, diags := compilertest.Compile(t, map[string]string{
		"project.yaml":               "version: 1\nname: mem\nmodels:\n  old:\n    legacy:\n      +enabled: false\n",
		"models/old/legacy/gone.sql": "select 1 as id",
		"models/old/kept.sql":        "select 2 as id",
		"models/a.sql": "{# ref('nope') is gone #}\nselect * from {{ ref('gone') }}\n" +
			"{% set r = ref(\n  'nope') %}select * from {{ r }}\n",
		"models/b.sql":             "select {{ source('raw', 'missing') }}",
		"models/raw/documents.sql": "{{ config(schema='raw') }}\nselect 1 as x",
		"models/c.sql":             "select * from {{ ref('kept') }} where x = {{ undefined_name }}",
	})
	got := compilertest.Strings(diags)
	want := []string{
		`models/a.sql:2:18: ref("gone") points to a disabled model`,
		`models/a.sql:3:12: ref("nope"): no model or seed named "nope"`,
		`models/b.sql:1:11: source("raw", "missing") is not declared: no sources: list in the project's YAML names it`,
		`models/c.sql:1:`,
		`models/raw/documents.sql:1:4: model documents would replace raw.documents`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("diagnostic %d: got %q, want it to start with %q", i, got[i], want[i])
		}
	}
}
