package compiler_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestUnitTestModelWithVersion: `model: "dim 1"` names version 1 of dim
// as dbt's find_tested_model_node reads it (split on blanks, the second
// part the version); the test then runs against the versions its
// versions: keeps, with ids on the model as written (dbt's
// process_models_for_unit_test). "dim v1" and "dim 3" name no model, with
// a hint. Before, "dim 1" was "model does not exist".
func TestUnitTestModelWithVersion(t *testing.T) {
	ut := func(name, model, extra string) string {
		return "  - name: " + name + "\n    model: \"" + model + "\"\n" + extra +
			"    given: []\n    expect:\n      rows: [{id: 1}]\n"
	}
	files := map[string]string{
		"models/dim_v1.sql": "select 1 as id",
		"models/dim_v2.sql": "select 1 as id",
		"models/schema.yml": "version: 2\nmodels:\n  - name: dim\n    versions:\n      - v: 1\n      - v: 2\n",
		"models/ut.yml": "unit_tests:\n" + ut("pinned", "dim 1", "    versions: {include: [1]}\n") + ut("all", "dim 2", "") +
			ut("bad_v", "dim v1", "") + ut("bad_n", "dim 3", ""),
	}
	m, diags := compilertest.Compile(t, files)
	got := strings.Join(compilertest.Strings(diags), "\n")
	for _, want := range []string{
		`unit test bad_v: model "dim v1" does not exist (a version is written as its value, as dbt reads it: "dim 1")`,
		`unit test bad_n: model dim has no version 3 (versions: 1, 2)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, got)
		}
	}
	var ids []string
	for id, n := range m.Nodes {
		if strings.HasPrefix(id, "unit_test.") {
			ids = append(ids, id+" -> "+n.Unit.ModelNode.UniqueID)
		}
	}
	sort.Strings(ids)
	want := []string{
		"unit_test.mem.dim 1.pinned_v1 -> model.mem.dim.v1",
		"unit_test.mem.dim 2.all_v1 -> model.mem.dim.v1",
		"unit_test.mem.dim 2.all_v2 -> model.mem.dim.v2",
	}
	if strings.Join(ids, "\n") != strings.Join(want, "\n") {
		t.Errorf("unit tests:\n%s\nwant\n%s", strings.Join(ids, "\n"), strings.Join(want, "\n"))
	}
}
