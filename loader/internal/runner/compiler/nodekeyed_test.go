package compiler_test

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestNodeKeyedConfigApplies: dbt applies project-file configs by fqn, so
// a config under a model's or seed's own name configures that node (it was
// silently dropped: only folder levels were applied), after its folders'.
func TestNodeKeyedConfigApplies(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml":            "version: 1\nname: mem\nmodels:\n  mem:\n    marts:\n      +materialized: view\n      orders:\n        +materialized: table\n        +tags: [core]\nseeds:\n  mem:\n    notes:\n      +delimiter: \";\"\n",
		"seeds/notes.csv":         "id;note\n1;a\n",
		"models/marts/orders.sql": "select 1 as id",
		"models/marts/other.sql":  "select 2 as id",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	if w := m.Warnings; len(w) > 0 {
		t.Errorf("warnings: %v", w)
	}
	if got := m.Nodes["model.mem.orders"].Config.Materialized; got != "table" {
		t.Errorf("orders materialized %q, want table (keyed by its name)", got)
	}
	if got := m.Nodes["model.mem.other"].Config.Materialized; got != "view" {
		t.Errorf("other materialized %q, want view (its folder's)", got)
	}
	if tags := m.Nodes["model.mem.orders"].Tags; len(tags) != 1 || tags[0] != "core" {
		t.Errorf("orders tags %v", tags)
	}
	if d := m.Nodes["seed.mem.notes"].Config.Delimiter; d != ";" {
		t.Errorf("notes delimiter %q", d)
	}
}
