package loader_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestFreshLoadSkipsLookups: a load into a warehouse without documents
// lands every document as Fresh (the warehouse does not look up which
// documents and contents it has), a load into a warehouse with documents
// lands none so; both land the right rows: a document whose content
// another one of the same load carries takes its facts from that
// content, a changed document is merged (first version kept), a new one
// inserted.
func TestFreshLoadSkipsLookups(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	page := func(title, body string) []byte {
		return []byte("<html><head><title>" + title + "</title></head><body><p>" + body + "</p></body></html>")
	}
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(inbox, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.html", page("Stock report", "Every warehouse and its stock levels."))
	write("b.html", page("Stock report", "Every warehouse and its stock levels.")) // a's bytes
	write("c.html", page("Staff list", "Who works where."))
	yaml := "version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n"
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644)
	l := newInProcess(t, dir)

	fresh := map[string]bool{} // by file, as the last load landed it
	reused := 0
	saved := warehouse.Hooks.Statement
	t.Cleanup(func() { warehouse.Hooks.Statement = saved })
	warehouse.Hooks.Statement = func(batch []warehouse.Landing) error {
		for _, x := range batch {
			fresh[x.Doc.RelPath] = x.Fresh
			if x.Reused() {
				reused++
			}
		}
		return nil
	}
	rows := func(q string) string {
		t.Helper()
		rs, err := l.db.SQL().Query(q)
		if err != nil {
			t.Fatal(err)
		}
		defer rs.Close()
		var out []string
		for rs.Next() {
			var a, b, c any
			if err := rs.Scan(&a, &b, &c); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(a, "|", b, "|", c))
		}
		sort.Strings(out)
		return strings.Join(out, "; ")
	}
	docs := `select rel_path, title, status from raw.documents`
	versions := `select d.rel_path, count(*), count(distinct v.source_hash) from raw.document_versions v join raw.documents d using (doc_id) group by all`

	if s := l.load(false); s.New != 3 || s.Landed != 3 {
		t.Fatalf("first load: %+v", s)
	}
	if got := fmt.Sprint(fresh); got != "map[a.html:true b.html:true c.html:true]" {
		t.Errorf("first load, Fresh landings: %s, want all", got)
	}
	if reused != 1 {
		t.Errorf("first load: %d landings reuse a content, want 1 (a's or b's)", reused)
	}
	if got, want := rows(docs), "a.html|Stock report|landed; b.html|Stock report|landed; c.html|Staff list|landed"; got != want {
		t.Errorf("after the first load, documents:\n got %s\nwant %s", got, want)
	}
	if got, want := rows(`select count(*), count(distinct source_hash), 0 from staging.extractions`), "2|2|0"; got != want {
		t.Errorf("after the first load, extractions (count, hashes): %s, want %s", got, want)
	}

	clear(fresh)
	write("c.html", page("Staff list 2027", "Who works where, and since when."))
	write("d.html", page("Sites", "Where the warehouses are."))
	if s := l.load(false); s.New != 1 || s.Changed != 1 || s.Landed != 2 {
		t.Fatalf("second load: %+v", s)
	}
	if got := fmt.Sprint(fresh); got != "map[c.html:false d.html:false]" {
		t.Errorf("second load, Fresh landings: %s, want none", got)
	}
	if got, want := rows(docs), "a.html|Stock report|landed; b.html|Stock report|landed; c.html|Staff list 2027|landed; d.html|Sites|landed"; got != want {
		t.Errorf("after the second load, documents:\n got %s\nwant %s", got, want)
	}
	if got, want := rows(versions), "a.html|1|1; b.html|1|1; c.html|2|2; d.html|1|1"; got != want {
		t.Errorf("after the second load, versions:\n got %s\nwant %s", got, want)
	}
}
