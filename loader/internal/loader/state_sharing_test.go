package loader_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/docket-dev/docket/loader/internal/loader"
)

// TestStateHoldsEachHashOnce: the state a plan is made from holds each
// content hash once: a document's hash is the string of its content's
// key in the extractions, not a second 64-byte copy per document.
func TestStateHoldsEachHashOnce(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	const n = 6
	for i := 0; i < n; i++ {
		body := fmt.Sprintf("Document %d of the state test: enough plain words to land as text.\n", i%4) // two pairs share bytes
		os.WriteFile(filepath.Join(inbox, fmt.Sprintf("doc-%d.txt", i)), []byte(body), 0o644)
	}
	yaml := "version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 2\n"
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644)
	l := newInProcess(t, dir)
	if sum := l.load(false); sum.Landed != n {
		t.Fatalf("load: %+v", sum)
	}
	st, err := loader.ReadState(context.Background(), l.db, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Known) != n || len(st.Extractions) != 4 {
		t.Fatalf("state: %d documents, %d extractions; want %d, 4", len(st.Known), len(st.Extractions), n)
	}
	for id, k := range st.Known {
		ex, ok := st.Extractions[k.Hash]
		if !ok {
			t.Fatalf("%s: no extraction of %s", id, k.Hash)
		}
		if unsafe.StringData(k.Hash) != unsafe.StringData(ex.Hash) {
			t.Errorf("%s (%s): the document's hash is a copy of its content's", k.RelPath, k.Hash[:8])
		}
	}
}
