package cli_test

import (
	"strings"
	"testing"
)

// TestLoadSummarySaysFlagged: the load's summary line says how many
// landed documents were flagged for review; a document landed with a
// review reason (here a text file of white space: no_text) was counted as
// landed and nothing more, its reason only in staging.reviews.
func TestLoadSummarySaysFlagged(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"inbox/a.txt":     "Some words to load.\n",
		"inbox/blank.txt": " \n\t\n   \n",
		"project.yaml":    "version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n",
	})
	out := must(t, dir, "load", "--quiet")
	if want := "; 1 landed document(s) flagged for review (see staging.reviews)"; !strings.Contains(out, want) {
		t.Errorf("docket load: want %q in the summary, got:\n%s", want, out)
	}
}
