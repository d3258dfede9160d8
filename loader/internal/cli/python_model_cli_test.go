package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildWithPythonModel: docket build of a project with a dbt Python
// model builds the other models, prints the Python model as an errored
// python model with why docket does not build it, skips its child and
// exits 1 as for any failed model; a selection without it exits 0.
// Before, the ref to it was a parse error and nothing was built.
func TestBuildWithPythonModel(t *testing.T) {
	dir := tinyProject(t)
	writeFiles(t, dir, map[string]string{
		"models/a.sql":       "select 1 as id",
		"models/other.sql":   "select id from {{ ref('a') }}",
		"models/scores.py":   "def model(dbt, session):\n    return dbt.ref('a').df()\n",
		"models/uses_py.sql": "select * from {{ ref('scores') }}",
	})
	out, code := run(t, dir, "build")
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s", code, out)
	}
	for _, want := range []string{"ERROR creating python table model main.scores", "OK created sql view model main.other",
		"duckdb Python module, which docket does not embed", "Skipped because of upstream failures: uses_py", "PASS=2 WARN=0 ERROR=1 SKIP=1"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	must(t, dir, "build", "--exclude", "scores+")
	if out := must(t, dir, "compile"); !strings.Contains(out, "Compiled 3 models and 0 tests") || !strings.Contains(out, "1 Python model not compiled") {
		t.Errorf("compile: %s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "target", "compiled", "tiny", "models", "scores.py")); err == nil {
		t.Errorf("compile wrote an empty compiled scores.py")
	}
}
