package loader

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestListingHoldsEachStringOnce: a listing of files the warehouse knows
// keeps the state's doc_id strings (not a 64-byte copy per file), and a
// file's relative path is the tail of its path, not a copy of it. At
// 200k files the copies were ~18 MB of the listing a plan holds beside
// the state.
func TestListingHoldsEachStringOnce(t *testing.T) {
	p, src := planProject(t)
	known := map[string]warehouse.Known{}
	for i := 0; i < 20; i++ {
		os.MkdirAll(filepath.Join(src, fmt.Sprintf("d%d", i%3)), 0o755)
		rel := fmt.Sprintf("d%d/doc%02d.txt", i%3, i)
		write(t, src, rel, fmt.Sprintf("text %d\n", i))
		if i%4 != 0 { // every fourth file is new
			id := DocID("inbox", rel)
			known[id] = warehouse.Known{DocID: id, Status: warehouse.StatusLanded, SourceName: "inbox", RelPath: rel}
		}
	}
	l := List(p, known)
	if len(l.files) != 20 {
		t.Fatalf("listed %d files, want 20", len(l.files))
	}
	shared := 0
	for _, f := range l.files {
		if f.docID != DocID("inbox", f.rel) {
			t.Fatalf("%s: doc_id %s, want %s", f.rel, f.docID, DocID("inbox", f.rel))
		}
		if k, ok := known[f.docID]; ok {
			if unsafe.StringData(f.docID) != unsafe.StringData(k.DocID) {
				t.Errorf("%s: the listing holds its own copy of the known doc_id", f.rel)
			}
			shared++
		}
		tail := (*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(f.abs)), len(f.abs)-len(f.rel)))
		if unsafe.StringData(f.rel) != tail {
			t.Errorf("%s: the relative path is a copy, not the tail of %s", f.rel, f.abs)
		}
	}
	if shared != 15 {
		t.Errorf("%d listed files known, want 15", shared)
	}
}
