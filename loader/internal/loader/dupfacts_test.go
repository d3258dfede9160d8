package loader_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestCopiesInOneLoadGetTheirContentsFacts: files with the same bytes in
// one load all land with the content's facts (title, page count,
// warnings, MIME), whether a copy went to the sink before the file that
// extracted it (the run's facts) or after (the content's staging row):
// the run keeps no facts once a content's family is landed.
func TestCopiesInOneLoadGetTheirContentsFacts(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	const copies = 40
	body := "<html><head><title>Stock of every warehouse</title></head><body><p>The warehouses and their stock levels, in plain words.</p></body></html>\n"
	for i := 0; i < copies; i++ {
		if err := os.WriteFile(filepath.Join(inbox, fmt.Sprintf("copy%02d.html", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	yaml := "version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n"
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644)
	l := newInProcess(t, dir)
	sum := l.load(false)
	if sum.Landed != copies || sum.Extracted != 1 {
		t.Fatalf("load: %+v", sum)
	}
	var n int
	q := `select count(*) from raw.documents d join staging.extractions e using (source_hash)
		where d.title = 'Stock of every warehouse' and d.page_count = 1 and d.mime_type = e.mime_type
		and d.warnings = e.warnings and d.metadata::varchar = e.metadata::json::varchar`
	if err := l.db.SQL().QueryRow(q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != copies {
		t.Errorf("%d of %d copies landed with the content's facts", n, copies)
	}
}
