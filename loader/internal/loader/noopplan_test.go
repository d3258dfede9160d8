package loader

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestNoopPlanKeepsLittlePerFile: the plan of a no-op load (every
// file's stat vouches for it) holds no planned file and keeps under 64
// bytes per file beyond the state it is given (its doc_id in Unchanged):
// it neither copies the state's extractions nor keeps a planned file or a
// set entry per file (~480 bytes per file before, ~96 MB for 200k files).
// What it allocates as it goes is a batch of rows at a time (see
// TestPlanFromHoldsABatch for the plan made from a warehouse).
func TestNoopPlanKeepsLittlePerFile(t *testing.T) {
	p, _ := planProject(t)
	const n = 4000
	least := int64(1 << 62)
	for round := 0; round < 3; round++ {
		st, l := noopState(n)
		before := liveHeap()
		plan := mustPlan(t, st, l, Options{Project: p})
		l = nil
		least = min(least, liveHeap()-before)
		if len(plan.Files) != 0 || plan.Count(ActUnchanged) != n || len(plan.Contents) != n || plan.BytesHashed != 0 {
			t.Fatalf("no-op plan: %d files, %d unchanged, %d contents, %d bytes hashed", len(plan.Files), plan.Count(ActUnchanged), len(plan.Contents), plan.BytesHashed)
		}
		runtime.KeepAlive(plan)
	}
	t.Logf("MakePlan kept %d bytes for %d unchanged files: %d per file", least, n, least/n)
	if per := least / n; per >= 64 {
		t.Errorf("a no-op plan keeps %d bytes per file, want under 64", per)
	}
}

// noopState is a warehouse state and a listing of n files whose stats
// vouch for them (read by a load an hour after their last change).
func noopState(n int) (*State, *Listing) {
	st := &State{Known: make(map[string]warehouse.Known, n), Extractions: make(map[string]warehouse.Extraction, n), OCR: map[string]bool{}}
	l := &Listing{unreadable: map[string][]string{}}
	mtime := time.Now().Add(-48 * time.Hour).UnixNano()
	for i := 0; i < n; i++ {
		rel := fmt.Sprintf("d%03d/doc%06d.txt", i/1000, i)
		id, h := DocID("inbox", rel), hashString(rel)
		stat := FileStat{Size: int64(100 + i), MTimeN: mtime, Inode: uint64(1000 + i), CTimeN: mtime, TakenN: mtime + int64(time.Hour)}
		st.Known[id] = warehouse.Known{DocID: id, Hash: h, Status: warehouse.StatusLanded, SourceName: "inbox", RelPath: rel, Stat: stat}
		st.Extractions[h] = warehouse.Extraction{Hash: h, Status: warehouse.StatusLanded, Type: "text", Attempts: 1}
		now := stat
		now.TakenN = time.Now().UnixNano()
		l.files = append(l.files, &entry{docID: id, source: "inbox", rel: rel, abs: "/nowhere/" + rel, stat: now})
	}
	return st, l
}
