package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRetryAVersionedModel: docket retry (and result: selectors) name a
// version of a versioned model by name.vN. Its unique_id ends in .v1, so
// the retry selected "v1", which names no node: the failed version was
// never run again.
func TestRetryAVersionedModel(t *testing.T) {
	dir := versionedDim(t, "select * from no_such_table")
	if out, code := run(t, dir, "build"); code != 1 {
		t.Fatalf("build with a broken version should exit 1, got %d:\n%s", code, out)
	}
	state := filepath.Join(t.TempDir(), "state")
	os.CopyFS(state, os.DirFS(filepath.Join(dir, "target")))
	if out := must(t, dir, "ls", "-s", "result:error", "--state", state); strings.TrimSpace(out) != "model\tmain.dim_v1\tview" {
		t.Errorf("ls -s result:error:\n%s", out)
	}
	writeFiles(t, dir, map[string]string{"models/dim_v1.sql": "select 1 as id"})
	out := must(t, dir, "retry")
	if !strings.Contains(out, "main.dim_v1") || strings.Contains(out, "main.dim_v2") || !strings.Contains(out, "TOTAL=1") {
		t.Errorf("retry should run dim v1 alone:\n%s", out)
	}
}

// TestStateModifiedVersion: state:modified names the one version whose
// file changed (it named the model, selecting every version).
func TestStateModifiedVersion(t *testing.T) {
	dir := versionedDim(t, "select 1 as id")
	must(t, dir, "build")
	state := filepath.Join(t.TempDir(), "state")
	os.CopyFS(state, os.DirFS(filepath.Join(dir, "target")))
	writeFiles(t, dir, map[string]string{"models/dim_v1.sql": "select 10 as id"})
	if out := must(t, dir, "ls", "-s", "state:modified", "--state", state); strings.TrimSpace(out) != "model\tmain.dim_v1\tview" {
		t.Errorf("ls -s state:modified:\n%s", out)
	}
}
