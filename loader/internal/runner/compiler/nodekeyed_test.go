package compiler_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestNodeKeyedConfigWarns: configs keyed by a model's or seed's own name
// in the project file were silently not applied; now each is a warning
// at its line.
func TestNodeKeyedConfigWarns(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml":            "version: 1\nname: mem\nmodels:\n  mem:\n    marts:\n      orders:\n        +materialized: table\nseeds:\n  mem:\n    notes:\n      +delimiter: \";\"\n",
		"seeds/notes.csv":         "id;note\n1;a\n",
		"models/marts/orders.sql": "select 1 as id",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	got := fmt.Sprint(m.Warnings)
	for _, want := range []string{`project.yaml:6:7: models: the configs under "orders"`, `project.yaml:10:5: seeds: the configs under "notes"`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %s", want, got)
		}
	}
}
