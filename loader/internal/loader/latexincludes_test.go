package loader_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestLaTeXIncludeChangeReextracts: a LaTeX document whose main file is
// as it was but whose \input file was edited, or whose missing \input
// file appeared, is changed and extracted again with the new text; a
// load with nothing changed leaves it unchanged. Its hash is the main
// file's bytes alone, and an edit of only the included file left the old
// text landed. A document landed before its includes were recorded is
// extracted again once.
func TestLaTeXIncludeChangeReextracts(t *testing.T) {
	dir := t.TempDir()
	paper := filepath.Join(dir, "inbox", "paper")
	os.MkdirAll(filepath.Join(paper, "chapters"), 0o755)
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n  timeout: 60s\n"), 0o644)
	os.WriteFile(filepath.Join(paper, "main.tex"), []byte("\\documentclass{article}\n\\begin{document}\nThe harbour report.\n\\input{chapters/ops}\n\\input{later}\n\\end{document}\n"), 0o644)
	os.WriteFile(filepath.Join(paper, "chapters", "ops.tex"), []byte("Cranes were idle in March.\n"), 0o644)
	text := func(like string) int {
		return count(t, dir, `select count(*) from raw.documents d join staging.pages p using (source_hash) where d.rel_path = 'paper/main.tex' and p.text like '%`+like+`%'`)
	}
	event := func(out string) string {
		t.Helper()
		return eventOf(t, dir, "paper/main.tex", out)
	}
	mustLoad(t, dir)
	if text("Cranes were idle") != 1 {
		t.Fatal("first load: the included text did not land")
	}
	os.WriteFile(filepath.Join(paper, "chapters", "ops.tex"), []byte("Cranes worked double shifts in April.\n"), 0o644)
	if e := event(mustLoad(t, dir)); e != "changed" || text("double shifts") != 1 || text("Cranes were idle") != 0 {
		t.Errorf("after editing only the included file: event %q, new text %d, old text %d; want changed, 1, 0", e, text("double shifts"), text("Cranes were idle"))
	}
	if e := event(mustLoad(t, dir)); e != "" {
		t.Errorf("nothing changed: main.tex had event %q, want none (unchanged)", e)
	}
	os.WriteFile(filepath.Join(paper, "later.tex"), []byte("Ferries were added later.\n"), 0o644)
	if e := event(mustLoad(t, dir)); e != "changed" || text("Ferries were added") != 1 {
		t.Errorf("after the missing included file appeared: event %q, text %d; want changed, 1", e, text("Ferries were added"))
	}
	// As landed before includes were recorded: extracted again once. Its
	// content was then keyed by the main file's bytes alone.
	db, err := warehouse.Open(context.Background(), filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var key string
	if err := db.SQL().QueryRow(`select source_hash from raw.documents where rel_path = 'paper/main.tex'`).Scan(&key); err != nil {
		t.Fatal(err)
	}
	legacy := []string{`update raw.documents set metadata = json_object('title', 'x'), source_hash = $2 where rel_path = 'paper/main.tex' and source_hash = $1`}
	for _, table := range []string{"extractions", "attachments", "pages", "reviews", "elements", "tables", "ocr_words"} {
		legacy = append(legacy, `update staging.`+table+` set source_hash = $2 where source_hash = $1`)
	}
	for _, q := range legacy {
		if _, err := db.SQL().Exec(q, key, fileHash(t, filepath.Join(paper, "main.tex"))); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	if e := event(mustLoad(t, dir)); e != "reextracted" {
		t.Errorf("landed without its includes recorded: event %q, want reextracted", e)
	}
	if e := event(mustLoad(t, dir)); e != "" {
		t.Errorf("after the re-extraction: event %q, want none (unchanged)", e)
	}
}

// eventOf is rel's event in the last load's ops.document_events, "" when
// it has none (unchanged documents have none); out is that load's output.
func eventOf(t *testing.T, dir, rel, out string) string {
	t.Helper()
	db, err := warehouse.Open(context.Background(), filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var events []string
	rows, err := db.SQL().Query(`select e.event from ops.document_events e join raw.documents d using (doc_id)
		where d.rel_path = ? and e.run_id = (select run_id from ops.load_runs order by started_at desc limit 1)`, rel)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var e string
		rows.Scan(&e)
		events = append(events, e)
	}
	if len(events) > 1 {
		t.Fatalf("%s: events %v in one load\n%s", rel, events, out)
	}
	return strings.Join(events, "")
}
