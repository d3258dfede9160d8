package loader_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/internal/warehouse/whtest"
)

// A warehouse main's docket loaded at schema version 12 (the warehouse
// package's testdata/v12-*: four documents, 36 elements) migrates in
// place on the next load, which also lands a new document: staging.elements
// (element_id stored since schema version 13) has every row it had, column
// for column and element_id for element_id, the new document's elements
// have the ids sha256(source_hash, 'element', seq) the loader computed, and
// the published copy readers open has them too.
func TestSchema12WarehouseMigratesOnLoad(t *testing.T) {
	dir := t.TempDir()
	fx := whtest.Testdata()
	if err := os.CopyFS(filepath.Join(dir, "inbox"), os.DirFS(filepath.Join(fx, "v12-inbox"))); err != nil {
		t.Fatal(err)
	}
	yaml, err := os.ReadFile(filepath.Join(fx, "v12-project.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "project.yaml"), yaml, 0o644)
	wh := filepath.Join(dir, "warehouse.duckdb")
	whtest.WriteSchema12(t, wh)
	before := elementRows(t, wh)
	if len(before) != 36 {
		t.Fatalf("fixture: %d elements, want 36", len(before))
	}
	os.WriteFile(filepath.Join(dir, "inbox", "added.md"), []byte("# Added after the upgrade\n\nOne paragraph of text.\n\n- a list item\n"), 0o644)

	mustLoad(t, dir)
	for _, path := range []string{wh, warehouse.ReadPath(wh)} {
		after := elementRows(t, path)
		old := map[string]bool{}
		for _, r := range before {
			old[r] = true
		}
		kept, added := 0, 0
		for _, r := range after {
			switch {
			case old[r]:
				kept++
			default:
				f := strings.SplitN(r, "\t", 4)
				h := sha256.New()
				for _, p := range []string{f[1], "element", f[2]} {
					h.Write([]byte(p))
					h.Write([]byte{0})
				}
				if f[0] != hex.EncodeToString(h.Sum(nil)) {
					t.Errorf("%s: element_id %s is not sha256(%s, 'element', %s)", filepath.Base(path), f[0], f[1], f[2])
				}
				added++
			}
		}
		if kept != len(before) || added < 2 {
			t.Errorf("%s: %d of the %d elements kept as they were, %d added (want the new document's, at least 2)",
				filepath.Base(path), kept, len(before), added)
		}
	}
}

// elementRows renders the warehouse's staging.elements, every column as
// text (element_id, source_hash and seq first), one string a row.
func elementRows(t *testing.T, path string) []string {
	t.Helper()
	db, err := warehouse.Open(context.Background(), path, warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.SQL().Query(`select * from staging.elements order by source_hash, seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	if strings.Join(cols[:3], ",") != "element_id,source_hash,seq" {
		t.Fatalf("staging.elements' columns: %v", cols)
	}
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		s := make([]string, len(vals))
		for i, v := range vals {
			s[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(s, "\t"))
	}
	return out
}
