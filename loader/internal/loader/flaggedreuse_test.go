package loader_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFlaggedCountsReusedContents: the load's count of landed documents
// flagged for review counts a document whose content has a review reason
// however its content came: extracted for it, taken from another file of
// the same run with the same bytes, or landed by an earlier load. Only
// the first was counted: two blank files landed flagged, summary 1.
func TestFlaggedCountsReusedContents(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	blank := []byte(" \n\t\n   \n")
	for _, name := range []string{"blank-1.txt", "blank-2.txt"} {
		os.WriteFile(filepath.Join(inbox, name), blank, 0o644)
	}
	os.WriteFile(filepath.Join(inbox, "words.txt"), []byte("Some words to load.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 2\n"), 0o644)
	l := newInProcess(t, dir)
	if s := l.load(false); s.Landed != 3 || s.Flagged != 2 {
		t.Errorf("first load: %d landed, %d flagged; want 3 and 2 (both blank files)", s.Landed, s.Flagged)
	}
	os.WriteFile(filepath.Join(inbox, "blank-3.txt"), blank, 0o644)
	if s := l.load(false); s.Landed != 1 || s.Flagged != 1 {
		t.Errorf("second load, a third blank file: %d landed, %d flagged; want 1 and 1", s.Landed, s.Flagged)
	}
}
