package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadSummarySaysFlagged: the load's summary line says how many
// landed documents were flagged for review; a document landed with a
// review reason (here a text file of white space: no_text) was counted as
// landed and nothing more, its reason only in staging.reviews.
func TestLoadSummarySaysFlagged(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "inbox"), 0o755)
	os.WriteFile(filepath.Join(dir, "inbox", "a.txt"), []byte("Some words to load.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "inbox", "blank.txt"), []byte(" \n\t\n   \n"), 0o644)
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n"), 0o644)
	out := must(t, dir, "load", "--quiet")
	if want := "; 1 landed document(s) flagged for review (see staging.reviews)"; !strings.Contains(out, want) {
		t.Errorf("docket load: want %q in the summary, got:\n%s", want, out)
	}
}
