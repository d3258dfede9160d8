package compiler_test

import (
	"slices"
	"strings"
	"testing"
)

// TestGroupConfig: a node's group (config group:, from YAML, config() or
// dbt_project.yml) is its group as dbt records it: manifest.json's group
// and config.group, and the group: selector method (dbt's
// GroupSelectorMethod, a glob) and config.group: select it. docket
// warned "config group is read but not applied" and dropped it: `ls -s
// group:reference` was "unknown selector method", `-s config.group:reference`
// selected nothing without a word, and manifest.json wrote group null
// (Ddscully/dlt-dbt-duckdb-evidence groups every model and snapshot).
func TestGroupConfig(t *testing.T) {
	m, diags := parseDir(t, map[string]string{
		"dbt_project.yml": "name: p\nmodels:\n  p:\n    marts:\n      +group: finance\n",
		"models/groups.yml": "version: 2\ngroups:\n  - name: reference\n    owner: {name: A}\n  - name: finance\n    owner: {name: B}\n" +
			"models:\n  - name: dim\n    config:\n      group: reference\n",
		"models/dim.sql":       "select 1 as id",
		"models/other.sql":     "{{ config(group='reference') }} select 1 as id",
		"models/marts/fct.sql": "select 1 as id",
		"models/plain.sql":     "select 1 as id",
	})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for sel, want := range map[string][]string{
		"group:reference":        {"model.p.dim", "model.p.other"},
		"config.group:reference": {"model.p.dim", "model.p.other"},
		"group:fin*":             {"model.p.fct"},
	} {
		ids, err := m.Select([]string{sel}, nil, "model")
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		slices.Sort(ids)
		if !slices.Equal(ids, want) {
			t.Errorf("%s selected %v, want %v", sel, ids, want)
		}
	}
	for id, want := range map[string]any{"model.p.dim": "reference", "model.p.fct": "finance", "model.p.plain": nil} {
		d := m.NodeDoc(m.Nodes[id])
		if d["group"] != want || d["config"].(map[string]any)["group"] != want {
			t.Errorf("%s: manifest group %v, config.group %v, want %v", id, d["group"], d["config"].(map[string]any)["group"], want)
		}
	}
	for _, w := range m.Warnings {
		if s := w.String(); strings.Contains(s, "config group") {
			t.Errorf("warning %q: group is applied", s)
		}
	}
}
