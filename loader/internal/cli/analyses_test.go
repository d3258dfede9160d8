package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompileWritesAnalyses: `docket compile` compiles analyses/ as
// `dbt compile` does: their SQL under target/compiled/<project>/analyses/ (dbt's layout), counted
// in the summary, printed when one alone is selected; `docket run` runs
// none and writes none (it warned "analyses are not compiled" before).
func TestCompileWritesAnalyses(t *testing.T) {
	dir := tinyProject(t)
	os.MkdirAll(filepath.Join(dir, "models", "marts"), 0o755)
	os.MkdirAll(filepath.Join(dir, "analyses"), 0o755)
	os.WriteFile(filepath.Join(dir, "models", "marts", "one.sql"), []byte("select 1 as id\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "analyses", "look.sql"), []byte("select count(*) from {{ ref('one') }}\n"), 0o644)
	out := must(t, dir, "compile")
	if !strings.Contains(out, "1 analyses") || strings.Contains(out, "analyses are not compiled") {
		t.Errorf("compile:\n%s", out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "target", "compiled", "tiny", "analyses", "look.sql"))
	if err != nil || strings.TrimSpace(string(b)) != "select count(*) from marts.one" {
		t.Errorf("compiled analysis: %q %v", b, err)
	}
	if out := must(t, dir, "compile", "-s", "look"); strings.TrimSpace(out) != "select count(*) from marts.one" {
		t.Errorf("compile -s look:\n%s", out)
	}
	os.RemoveAll(filepath.Join(dir, "target"))
	out = must(t, dir, "run")
	if strings.Contains(out, "look") {
		t.Errorf("run ran the analysis:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "target", "compiled", "tiny", "analyses")); err == nil {
		t.Errorf("run wrote the analysis' SQL")
	}
}
