package runner

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// manifestState is what the compiler's public API shows of a manifest,
// as JSON by part: each node's and source's exported fields, the order,
// the graph and the warnings.
func manifestState(t *testing.T, m *compiler.Manifest) map[string]string {
	t.Helper()
	parts := map[string]any{"order": m.Order, "parents": m.Parents, "children": m.Children, "warnings": m.Warnings}
	for id, n := range m.Nodes {
		parts[id] = n
	}
	for id, n := range m.Sources {
		parts[id] = n
	}
	out := map[string]string{}
	for k, v := range parts {
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out[k] = string(j)
	}
	return out
}

// TestExecuteLeavesTheManifestAlone: the executor records what a run
// rendered and did in its results, never in the manifest: after two
// builds (the second incremental, with a model whose SQL is rendered
// again through the connection) the manifest is as the compiler made it,
// while the results carry the run-time SQL.
func TestExecuteLeavesTheManifestAlone(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"seeds/s.csv": "id\n1\n2\n",
		"models/m/a.sql": "{{ config(materialized='incremental', unique_key='id', post_hook='select 1') }}\n" +
			"select id from {{ ref('s') }}{% if is_incremental() %} where id > 1{% endif %}",
		"models/m/b.sql": "{{ config(materialized='table') }}\n" +
			"{% set r = run_query('select max(id) as top from ' ~ ref('a')) %}\n" +
			"select {{ r.columns[0].values()[0] if execute else 0 }} as top",
		"models/m/a.yml": "version: 2\nmodels:\n  - name: a\n    columns: [{name: id, tests: [unique]}]\n",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	before := manifestState(t, m)
	db, rr := buildProbe(t, m)
	ctx := t.Context()
	rr2, err := executor.Execute(ctx, m, db, executor.RunOptions{Command: "build", Threads: 2, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	after := manifestState(t, m)
	for k, b := range before {
		if after[k] != b {
			t.Errorf("Execute changed the manifest's %s:\nbefore %s\nafter  %s", k, b, after[k])
		}
	}
	if len(after) != len(before) || len(before) < 8 {
		t.Errorf("manifest parts: %d before, %d after", len(before), len(after))
	}
	for _, run := range []*executor.RunResults{rr, rr2} {
		for _, r := range run.Results {
			if r.Status != executor.StatusSuccess && r.Status != executor.StatusPass {
				t.Fatalf("%s: %s %s", r.UniqueID, r.Status, r.Message)
			}
		}
	}
	got := resultsByName(rr2)
	if a := got["a"].CompiledCode; !strings.Contains(a, "where id > 1") || strings.Contains(m.Nodes["model.probe.a"].CompiledCode, "where id > 1") {
		t.Errorf("a's incremental SQL: result %q, node %q", a, m.Nodes["model.probe.a"].CompiledCode)
	}
	if b := got["b"].CompiledCode; !strings.Contains(b, "2 as top") || !strings.Contains(m.Nodes["model.probe.b"].CompiledCode, "0 as top") {
		t.Errorf("b's run-time SQL: result %q, node %q", b, m.Nodes["model.probe.b"].CompiledCode)
	}
}
