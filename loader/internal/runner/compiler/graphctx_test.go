package compiler_test

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestGraphAndSelectedResources: graph and selected_resources as dbt-core
// has them. At parse graph's members are empty (items and get() too) and
// selected_resources is [] (as dbt's lenient parse sees them, execute=false) and the node is marked to render
// again at run time; a run's render sees every node by unique_id with
// resource_type, config, depends_on, fqn, original_file_path and columns,
// the sources, and the run's selection. Both were undefined names.
func TestGraphAndSelectedResources(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/staging/a.sql": "{{ config(materialized='table') }} select 1 as id from {{ source('raw', 'docs') }}",
		"models/staging/a.yml": "version: 2\nmodels:\n  - name: a\n    columns:\n      - {name: id, description: the id}\n",
		"models/sources.yml":   "version: 2\nsources:\n  - name: raw\n    tables:\n      - name: docs\n",
		"models/marts/inventory.sql": "{% set models = graph.nodes.values() | selectattr('resource_type', 'equalto', 'model') | list %}" +
			"select {{ models | length }} as n, '{{ selected_resources | join(',') }}' as sel" +
			"{% for x in models | sort(attribute='name') %}, '{{ x.name }}:{{ x.config.materialized }}:{{ x.original_file_path }}:{{ x.fqn | join('.') }}:{{ x.depends_on.nodes | join('+') }}:{{ x.columns.keys() | list | join('') }}' as m{{ loop.index }}{% endfor %}" +
			"{% for s in graph['sources'].values() %}, '{{ s.source_name }}.{{ s.name }}' as src{% endfor %}" +
			", '{{ graph['nodes']['model.mem.a'].name }}{{ graph.get('nodes', {}) | length }}' as g",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	inv := m.Nodes["model.mem.inventory"]
	if got := strings.TrimSpace(inv.CompiledCode); got != "select 0 as n, '' as sel, '0' as g" || !inv.ReadsDatabase() {
		t.Fatalf("at parse: %q (renders at run: %v)", got, inv.ReadsDatabase())
	}
	run, err := m.ForRun(compiler.RunContext{Selected: []string{"model.mem.a", "model.mem.inventory"}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := run.RenderDB(context.Background(), nil, inv, false)
	if err != nil {
		t.Fatal(err)
	}
	want := "select 2 as n, 'model.mem.a,model.mem.inventory' as sel, 'a:table:models/staging/a.sql:mem.staging.a:source.mem.raw.docs:id' as m1, " +
		"'inventory:view:models/marts/inventory.sql:mem.marts.inventory::' as m2, 'raw.docs' as src, 'a2' as g"
	if strings.TrimSpace(out) != want {
		t.Errorf("at run:\n%s\nwant:\n%s", out, want)
	}
	if strings.TrimSpace(inv.CompiledCode) != "select 0 as n, '' as sel, '0' as g" {
		t.Errorf("ForRun changed the parsed manifest: %q", inv.CompiledCode)
	}
}
