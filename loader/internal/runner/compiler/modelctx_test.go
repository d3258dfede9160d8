package compiler_test

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestModelIsTheNodesDict: a node's `model` is the node as the graph has
// it without its null keys (dbt's to_dict(omit_none=True)): its config's
// meta (from the YAML), docs, contract and custom keys, its columns,
// depends_on and refs; an unset key is undefined (” printed), not
// None. Before, model was a cut-down map whose config had eight keys:
// model.config.meta.owner failed "Can't use Getitem on None" with the
// YAML setting it, as did model.columns, model.depends_on, ...
func TestModelIsTheNodesDict(t *testing.T) {
	exprs := []string{
		"model.config.meta.owner", "(model.config.meta.profiles or {}).consent", "model.meta.owner", "model.config.docs.show",
		"model.config.contract.enforced", "model.depends_on.nodes | join(',')", "model.refs | map(attribute='name') | join(',')",
		"model.columns.keys() | list | join(',')", "model.columns.id.meta.pii if 'id' in model.columns", "model.config.my_key", "model.config.materialized",
		"model.config.schema is defined", "model.name ~ '/' ~ model.unique_id",
	}
	want := []string{"ops", "opt-in", "ops", "True", "False", "model.mem.up", "up", "id", "True", "7", "table", "False", "m/model.mem.m"}
	wantBare := []string{"", "", "", "True", "False", "model.mem.up", "up", "", "", "", "view", "False", "b/model.mem.b"}
	var b strings.Builder
	for _, e := range exprs {
		b.WriteString("{{ " + e + " }}|")
	}
	sql := "-- " + b.String() + "\nselect * from {{ ref('up') }}"
	m, diags := compilertest.Compile(t, map[string]string{
		"models/up.sql": "select 1 as id",
		"models/m.sql":  "{{ config(materialized='table', my_key=7) }}\n" + sql,
		"models/b.sql":  sql,
		"models/m.yml": "version: 2\nmodels:\n  - name: m\n    config:\n      meta:\n        owner: ops\n        profiles: {consent: opt-in}\n" +
			"    columns:\n      - name: id\n        meta: {pii: true}\n",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	run, err := m.ForRun(compiler.RunContext{})
	if err != nil {
		t.Fatal(err)
	}
	for name, w := range map[string][]string{"m": want, "b": wantBare} {
		n := m.Nodes["model.mem."+name]
		atRun, err := run.RenderDB(context.Background(), nil, n, false)
		if err != nil {
			t.Fatalf("%s at run: %v", name, err)
		}
		for _, got := range []string{n.CompiledCode, atRun} {
			line := ""
			for _, l := range strings.Split(got, "\n") {
				if strings.HasPrefix(l, "-- ") {
					line = strings.TrimPrefix(l, "-- ")
				}
			}
			parts := strings.Split(line, "|")
			for i, e := range exprs {
				if i >= len(parts) || parts[i] != w[i] {
					t.Errorf("%s: {{ %s }} = %q, want %q (%s)", name, e, parts[min(i, len(parts)-1)], w[i], line)
				}
			}
		}
	}
}
