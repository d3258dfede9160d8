package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestConfigDescriptionIsNotTheDescription: description= in config() is
// what dbt-core makes of it (dbt-core#1922: never the node's description;
// a custom config key config.get reads, warned by dbt 1.10+): the node is
// documented from its YAML description:, config.get('description') gives
// the value, and the warning says so instead of "unknown config key"
// (clickbench's models, robust29's Left).
func TestConfigDescriptionIsNotTheDescription(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/hits.sql":    "{{ config(materialized='table', description='from config') }}\nselect '{{ config.get(\"description\") }}' as d",
		"models/schema.yml":  "version: 2\nmodels:\n  - name: hits\n    description: from yaml\n",
		"models/other.sql":   "{{ config(descripton='typo') }}\nselect 1 as x",
		"models/unknown.sql": "select 1 as x",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	n := m.Nodes["model.mem.hits"]
	if n.Description != "from yaml" || !strings.Contains(n.CompiledCode, "'from config' as d") {
		t.Errorf("description %q, compiled %q", n.Description, n.CompiledCode)
	}
	var got []string
	for _, w := range m.Warnings {
		got = append(got, w.String())
	}
	all := strings.Join(got, "\n")
	if !strings.Contains(all, "models/hits.sql:1:4: config description is not the node's description: dbt keeps it as a custom config key") ||
		strings.Contains(all, `unknown config key "description"`) || !strings.Contains(all, `models/other.sql:1:4: unknown config key "descripton"`) {
		t.Errorf("warnings:\n%s", all)
	}
}
