package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tinyProject is a project with one text file and no models.
func tinyProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "inbox"), 0o755)
	os.WriteFile(filepath.Join(dir, "inbox", "note.txt"), []byte("The forklift licence renewal is due in March for the night shift.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nname: tiny\nsources:\n  - name: inbox\n    path: inbox\n"), 0o644)
	return dir
}

// TestCleanRemovesTargetsInsideTheProjectOnly: docket clean removes
// target/ and dbt_project.yml's clean-targets, refuses paths outside the
// project or holding its files, and --dry-run removes nothing.
func TestCleanRemovesTargetsInsideTheProjectOnly(t *testing.T) {
	dir := tinyProject(t)
	outside := filepath.Join(t.TempDir(), "outside")
	for _, d := range []string{"target/compiled", "logs", "models", outside} {
		p := d
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, d)
		}
		os.MkdirAll(p, 0o755)
		os.WriteFile(filepath.Join(p, "f"), []byte("x"), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "dbt_project.yml"), []byte(fmt.Sprintf("name: tiny\nversion: '1.0'\nprofile: tiny\nclean-targets: [target, logs, %s, models]\n", outside)), 0o644)
	out, code := run(t, dir, "clean", "--dry-run")
	if code != 2 || !strings.Contains(out, "would remove target") || !strings.Contains(out, "would remove logs") {
		t.Fatalf("dry run: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "target/compiled/f")); err != nil {
		t.Fatal("--dry-run removed target")
	}
	out, code = run(t, dir, "clean")
	if code != 2 {
		t.Fatalf("clean with unsafe targets should exit 2, got %d\n%s", code, out)
	}
	for _, want := range []string{"removed target", "removed logs", "not removing " + outside + ": it is not inside the project", "not removing models: it holds models"} {
		if !strings.Contains(out, want) {
			t.Errorf("clean output lacks %q:\n%s", want, out)
		}
	}
	for path, gone := range map[string]bool{filepath.Join(dir, "target"): true, filepath.Join(dir, "logs"): true,
		filepath.Join(outside, "f"): false, filepath.Join(dir, "models/f"): false, filepath.Join(dir, "inbox/note.txt"): false} {
		if _, err := os.Stat(path); (err != nil) != gone {
			t.Errorf("%s: removed=%v, want %v", path, err != nil, gone)
		}
	}
}

// TestDebugReportsTheMachineAndTheWarehouse: docket debug checks config,
// versions, Tesseract, the lock holder and the published copy.
func TestDebugReportsTheMachineAndTheWarehouse(t *testing.T) {
	dir := tinyProject(t)
	exe, _ := os.Executable() // the test binary is its own worker (TestMain)
	out := must(t, dir, "debug")
	for _, want := range []string{"duckdb             v1.", "config", "(valid)", "tesseract", "vss extension", "not created yet", "worker             " + exe + " worker"} {
		if !strings.Contains(out, want) {
			t.Errorf("debug before load lacks %q:\n%s", want, out)
		}
	}
	must(t, dir, "load", "--quiet")
	out = must(t, dir, "debug")
	for _, want := range []string{"lock               free", "schema             version", "after `docket load`", ": current"} {
		if !strings.Contains(out, want) {
			t.Errorf("debug after load lacks %q:\n%s", want, out)
		}
	}
	holder := holdWith(t, nodeScript(t, "hold.mjs"), filepath.Join(dir, "warehouse.duckdb"), "ro")
	out = must(t, dir, "debug")
	if want := fmt.Sprintf("held read-only by PID %d (node", holder.Process.Pid); !strings.Contains(out, want) {
		t.Errorf("debug should name the reader holding the warehouse (%q):\n%s", want, out)
	}
	stopHold(t, holder)

	// A broken config is a failed check (exit 1), with the file and line.
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsourcez: []\n"), 0o644)
	out, code := run(t, dir, "debug")
	if code != 1 || !strings.Contains(out, "FAIL") || !strings.Contains(out, "project.yaml:2") {
		t.Fatalf("debug on a broken config: exit %d\n%s", code, out)
	}
}
