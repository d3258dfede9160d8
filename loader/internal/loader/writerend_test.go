package loader

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// endFamily is a family of docs documents and pages pages, as an
// execution hands it on with left files not yet handed out.
func endFamily(docs, pages int, tail bool, left int, more bool) Family {
	f := Family{Pages: pages, Tail: tail, Left: left, More: more}
	for i := 0; i < docs; i++ {
		f.Landings = append(f.Landings, warehouse.Landing{Doc: warehouse.DocRow{DocID: fmt.Sprint(i)}})
	}
	return f
}

// landAll adds fams to a Writer with the given limits, flushes it, and
// returns the batch sizes landed.
func landAll(t *testing.T, docs, pages int, fams ...Family) string {
	t.Helper()
	ctx := context.Background()
	l := &batchLander{}
	w := NewWriter(l, "run", &Summary{})
	w.Limits.Docs, w.Limits.Pages, w.Limits.Every = docs, pages, time.Hour
	for _, f := range fams {
		if err := w.Add(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(l.sizes)
}

// TestWriterTailBurstOneBatch: tail families that were already waiting
// when the one before them was handed on (More) go in one batch with the
// last of them, instead of one landing each (a landing costs fixed
// statements, and the burst done during a landing is waiting already).
func TestWriterTailBurstOneBatch(t *testing.T) {
	got := landAll(t, 100, 100,
		endFamily(2, 2, false, 1, false),
		endFamily(1, 1, true, 1, true),
		endFamily(2, 2, true, 1, true),
		endFamily(1, 1, true, 1, false))
	if want := "[6]"; got != want {
		t.Errorf("batches %s, want %s (the waiting tail families with the last one)", got, want)
	}
}

// TestWriterLandsNearTheEnd: once fewer files are left to extract than a
// batch holds (Family.Left < Limits.Docs), the Writer lands a batch at half the page limit
// when no family is waiting, so that a long document done late does not
// find a near-full batch queued before it; earlier, or while families
// wait, batches fill up as before.
func TestWriterLandsNearTheEnd(t *testing.T) {
	got := landAll(t, 100, 100,
		endFamily(1, 30, false, 200, false), // not ending: 30 pages held
		endFamily(1, 30, false, 200, false), // 60 pages, still not ending: held
		endFamily(1, 10, false, 1, true),    // ending, but another waits: held
		endFamily(1, 1, false, 1, false),    // ending, none waits, 71 >= 50: landed
		endFamily(1, 60, false, 1, false))   // the long one alone
	if want := "[4 1]"; got != want {
		t.Errorf("batches %s, want %s", got, want)
	}
	// Not ending: half the limit lands nothing early.
	got = landAll(t, 100, 100, endFamily(1, 60, false, 200, false), endFamily(1, 30, false, 200, false), endFamily(1, 20, false, 200, false))
	if want := "[3]"; got != want {
		t.Errorf("not ending: batches %s, want %s", got, want)
	}
}

// TestWriterEndingFollowsItsLimit: the execution's ending is judged
// against the Writer's own Limits.Docs, not the default batch size: with
// batches of 10 documents, 20 files left is not the ending yet (the
// batch goes on filling), 5 is.
func TestWriterEndingFollowsItsLimit(t *testing.T) {
	got := landAll(t, 10, 100,
		endFamily(1, 60, false, 50, false), // 50 left: not ending
		endFamily(1, 1, false, 20, false),  // 20 left, a batch holds 10: not ending, held
		endFamily(1, 1, false, 5, false),   // 5 left: ending, 62 >= 50 pages: landed
		endFamily(1, 10, false, 3, false))
	if want := "[3 1]"; got != want {
		t.Errorf("batches %s, want %s (the ending judged by Limits.Docs = 10)", got, want)
	}
}
