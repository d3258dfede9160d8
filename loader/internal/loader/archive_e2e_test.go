package loader_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchivesLandMembers: zip, tar.gz and a zip inside a zip land their
// members as child documents through the whole pipeline (pages, parent,
// depth), and a zip bomb is quarantined too_large with nothing unpacked.
func TestArchivesLandMembers(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	inner := zipOf("deep/note.txt", "The inner note talks about turbines and their blades.")
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(inbox, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("bundle.zip", zipOf("a.txt", "Alpha document about harbour cranes.", "page.html", "<html><body><h1>Beta</h1><p>Beta page text about ferries.</p></body></html>", "inner.zip", string(inner)))
	var tb bytes.Buffer
	zw := gzip.NewWriter(&tb)
	tw := tar.NewWriter(zw)
	body := "# Gamma\n\nGamma notes about railway signals.\n"
	tw.WriteHeader(&tar.Header{Name: "notes/gamma.md", Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
	tw.Write([]byte(body))
	tw.Close()
	zw.Close()
	write("notes.tar.gz", tb.Bytes())
	// a .gz whose header names no file: its member is named after it (it
	// was named after the loader's copy of it, by hash)
	var gb bytes.Buffer
	gw := gzip.NewWriter(&gb)
	gw.Write([]byte("Delta log about lock gates."))
	gw.Close()
	write("delta.log.gz", gb.Bytes())
	write("bomb.zip", zipOf("zeros.bin", strings.Repeat("\x00", 2<<20)))
	yaml := "version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n  timeout: 60s\n  max_archive_bytes: 1MiB\n"
	if err := os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	mustLoad(t, dir)
	q := func(sql string) int { return count(t, dir, sql) }
	for _, c := range []struct {
		rel   string
		depth int
		word  string
	}{
		{"bundle.zip#a.txt", 1, "cranes"},
		{"bundle.zip#page.html", 1, "ferries"},
		{"bundle.zip#inner.zip#deep/note.txt", 2, "turbines"},
		{"notes.tar.gz#notes/gamma.md", 1, "railway"},
		{"delta.log.gz#delta.log", 1, "lock gates"},
	} {
		n := q(`select count(*) from raw.documents d join staging.pages p using (source_hash)
			where d.rel_path = '` + c.rel + `' and d.status = 'landed' and d.parent_doc_id is not null
			and d.depth = ` + fmt.Sprint(c.depth) + ` and p.text like '%` + c.word + `%'`)
		if n != 1 {
			t.Errorf("%s: not landed at depth %d with its text (%d rows)", c.rel, c.depth, n)
		}
	}
	if n := q(`select count(*) from raw.documents where rel_path = 'bomb.zip' and status = 'quarantined' and error_kind = 'too_large' and error_message like '%zip bomb%'`); n != 1 {
		t.Errorf("zip bomb not quarantined too_large (%d)", n)
	}
	if n := q(`select count(*) from raw.documents where rel_path like 'bomb.zip#%'`); n != 0 {
		t.Errorf("zip bomb members landed: %d", n)
	}
	if n := q(`select count(*) from raw.documents where rel_path in ('bundle.zip', 'notes.tar.gz') and status = 'landed'`); n != 2 {
		t.Errorf("archives themselves not landed: %d", n)
	}
	oneRowPerKey(t, dir)
}

// zipOf is a zip archive of the members given as name, content pairs.
func zipOf(members ...string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i < len(members); i += 2 {
		w, _ := zw.Create(members[i])
		w.Write([]byte(members[i+1]))
	}
	zw.Close()
	return buf.Bytes()
}
