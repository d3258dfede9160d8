package loader_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestLaTeXSameMainOwnIncludes: two folders with byte-identical main.tex
// files and different \input chapters each land their own chapter's text;
// editing one folder's chapter changes that folder's document only; a
// third folder with the same main file and the same chapter as the first
// lands the first's content; a no-op load reads nothing and a --verify
// load, which hashes every main file again, finds every document
// unchanged. A content was keyed by the main file's bytes alone, so both
// folders landed one text (and after an edit of b/ch.tex, a/main.tex
// showed b's).
func TestLaTeXSameMainOwnIncludes(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	put := func(rel, text string) {
		t.Helper()
		p := filepath.Join(inbox, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old) // not racily clean: a no-op load reads nothing
	}
	main := "\\documentclass{article}\n\\begin{document}\nThe harbour report.\n\\input{ch}\n\\end{document}\n"
	put("a/main.tex", main)
	put("b/main.tex", main)
	put("a/ch.tex", "Alpha cranes were idle.\n")
	put("b/ch.tex", "Beta ferries ran late.\n")
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 2\n"), 0o644)
	l := newInProcess(t, dir)
	has := func(rel, like string) bool {
		t.Helper()
		var n int
		if err := l.db.SQL().QueryRow(`select count(*) from raw.documents d join staging.pages p using (source_hash)
			where d.rel_path = ? and p.text like ?`, rel, "%"+like+"%").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
	texts := func(when string, want map[string]string) {
		t.Helper()
		for rel, w := range want {
			for _, like := range []string{"Alpha cranes", "Beta ferries", "Gamma trains"} {
				if got := has(rel, like); got != (like == w) {
					t.Errorf("%s: %s has %q: %v, want %v", when, rel, like, got, like == w)
				}
			}
		}
	}

	l.load(false)
	texts("first load", map[string]string{"a/main.tex": "Alpha cranes", "b/main.tex": "Beta ferries"})
	if s := l.load(false); s.Unchanged != 4 || s.BytesHashed != 0 {
		t.Errorf("no-op load: %d unchanged, %d bytes hashed; want 4 and 0", s.Unchanged, s.BytesHashed)
	}
	if s := l.load(true); s.Unchanged != 4 || s.Landed != 0 {
		t.Errorf("--verify load: %d unchanged, %d landed; want 4 and 0", s.Unchanged, s.Landed)
	}

	put("b/ch.tex", "Gamma trains were on time.\n")
	if s := l.load(false); s.Changed != 2 || s.Unchanged != 2 {
		t.Errorf("after editing b/ch.tex: %d changed, %d unchanged; want 2 (b/ch.tex, b/main.tex) and 2", s.Changed, s.Unchanged)
	}
	texts("after editing b/ch.tex", map[string]string{"a/main.tex": "Alpha cranes", "b/main.tex": "Gamma trains"})

	put("c/main.tex", main)
	put("c/ch.tex", "Alpha cranes were idle.\n")
	if s := l.load(false); s.New != 2 {
		t.Errorf("a copy of folder a: %d new, want 2", s.New)
	}
	var contents int
	if err := l.db.SQL().QueryRow(`select count(distinct source_hash) from raw.documents where rel_path in ('a/main.tex', 'c/main.tex')`).Scan(&contents); err != nil || contents != 1 {
		t.Errorf("a/main.tex and c/main.tex (same main file, same chapter): %d contents (%v), want 1", contents, err)
	}
	texts("after copying folder a to c", map[string]string{"a/main.tex": "Alpha cranes", "b/main.tex": "Gamma trains", "c/main.tex": "Alpha cranes"})

	// Made by an outdated extractor: extracted again, under the same key,
	// without a word about the file changing (the main file's hash was
	// taken for the key's).
	var key string
	if err := l.db.SQL().QueryRow(`select source_hash from raw.documents where rel_path = 'a/main.tex'`).Scan(&key); err != nil {
		t.Fatal(err)
	}
	if _, err := l.db.SQL().Exec(`update staging.extractions set extractor_version = 'text/1' where source_hash = ?`, key); err != nil {
		t.Fatal(err)
	}
	s := l.load(false)
	var sameKey, warned int
	l.db.SQL().QueryRow(`select count(*) filter (where source_hash = ?), count(*) filter (where len(warnings) > 0) from raw.documents
		where rel_path in ('a/main.tex', 'c/main.tex')`, key).Scan(&sameKey, &warned)
	if s.Landed != 2 || sameKey != 2 || warned != 0 {
		t.Errorf("outdated content of a/main.tex and c/main.tex: %d landed, %d under their key, %d with a warning; want 2, 2, 0", s.Landed, sameKey, warned)
	}
	texts("after re-extracting an outdated content", map[string]string{"a/main.tex": "Alpha cranes", "c/main.tex": "Alpha cranes"})
}
