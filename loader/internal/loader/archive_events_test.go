package loader_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestArchiveMembersEventsOnReload: an archive extracted again lands its
// members with the event of a listed file with the same bytes, not as
// new (re-extracting an archive logged every member, already landed, as
// new): re-extracted after a version change, they are reextracted; in a
// changed archive, a changed member is changed, an added one new and the
// others (a nested zip's member too) unchanged. The load's summary counts
// them the same way.
func TestArchiveMembersEventsOnReload(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	inner := string(zipOf("deep/note.txt", "The inner note talks about turbines and their blades."))
	write := func(members ...string) {
		if err := os.WriteFile(filepath.Join(inbox, "bundle.zip"), zipOf(members...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "Alpha document about harbour cranes.", "b.txt", "Beta document about river ferries.", "inner.zip", inner)
	yaml := "version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n  timeout: 60s\n"
	if err := os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func() map[string]int {
		t.Helper()
		out, err := docket(t, dir, nil, "load", "--quiet", "--json")
		if err != nil {
			t.Fatalf("docket load: %v\n%s", err, out)
		}
		var s map[string]any
		if err := json.NewDecoder(strings.NewReader(out[strings.Index(out, "{"):])).Decode(&s); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		n := map[string]int{}
		for _, k := range []string{"seen", "new", "changed", "unchanged"} {
			f, _ := s[k].(float64)
			n[k] = int(f)
		}
		return n
	}
	events := func() map[string]string {
		t.Helper()
		db, err := warehouse.Open(context.Background(), filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		rows, err := db.SQL().Query(`select d.rel_path, e.event from ops.document_events e join raw.documents d using (doc_id)
			where e.run_id = (select run_id from ops.load_runs order by started_at desc limit 1)`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]string{}
		for rows.Next() {
			var rel, ev string
			rows.Scan(&rel, &ev)
			out[rel] = ev
		}
		return out
	}
	check := func(what string, got, want map[string]string, gotN, wantN map[string]int) {
		t.Helper()
		for rel, ev := range want {
			if got[rel] != ev {
				t.Errorf("%s: %s's event is %q, want %q (events: %v)", what, rel, got[rel], ev, got)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: events %v, want %v", what, got, want)
		}
		for k, v := range wantN {
			if gotN[k] != v {
				t.Errorf("%s: summary %s = %d, want %d (%v)", what, k, gotN[k], v, gotN)
			}
		}
	}
	const (
		a, b, in, note = "bundle.zip#a.txt", "bundle.zip#b.txt", "bundle.zip#inner.zip", "bundle.zip#inner.zip#deep/note.txt"
	)
	n := load()
	check("first load", events(), map[string]string{"bundle.zip": "new", a: "new", b: "new", in: "new", note: "new"},
		n, map[string]int{"seen": 5, "new": 5})

	// The archives' contents made by an older archive extractor.
	db, err := warehouse.Open(context.Background(), filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`update staging.extractions set extractor_version = 'archive/1' where extractor_version like 'archive/%'`,
		`update staging.pages set extractor_version = 'archive/1' where extractor_version like 'archive/%'`} {
		if _, err := db.SQL().Exec(q); err != nil {
			db.Close()
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	n = load()
	check("re-extracted", events(), map[string]string{"bundle.zip": "reextracted", a: "reextracted", b: "reextracted", in: "reextracted", note: "reextracted"},
		n, map[string]int{"seen": 5, "new": 0, "changed": 0, "unchanged": 0})

	write("a.txt", "Alpha document about harbour cranes, revised.", "b.txt", "Beta document about river ferries.", "inner.zip", inner, "c.txt", "Gamma document about canal locks.")
	n = load()
	check("changed", events(), map[string]string{"bundle.zip": "changed", a: "changed", b: "unchanged", in: "unchanged", note: "unchanged", "bundle.zip#c.txt": "new"},
		n, map[string]int{"seen": 6, "new": 1, "changed": 2, "unchanged": 3})
}
