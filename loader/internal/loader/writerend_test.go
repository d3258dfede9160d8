package loader

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// endFamily is a family of docs documents and pages pages, as an
// execution hands it on.
func endFamily(docs, pages int, tail, ending, more bool) Family {
	f := Family{Pages: pages, Tail: tail, Ending: ending, More: more}
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
		endFamily(2, 2, false, true, false),
		endFamily(1, 1, true, true, true),
		endFamily(2, 2, true, true, true),
		endFamily(1, 1, true, true, false))
	if want := "[6]"; got != want {
		t.Errorf("batches %s, want %s (the waiting tail families with the last one)", got, want)
	}
}

// TestWriterLandsNearTheEnd: once fewer files are left to extract than a
// batch holds (Ending), the Writer lands a batch at half the page limit
// when no family is waiting, so that a long document done late does not
// find a near-full batch queued before it; earlier, or while families
// wait, batches fill up as before.
func TestWriterLandsNearTheEnd(t *testing.T) {
	got := landAll(t, 100, 100,
		endFamily(1, 30, false, false, false), // not ending: 30 pages held
		endFamily(1, 30, false, false, false), // 60 pages, still not ending: held
		endFamily(1, 10, false, true, true),   // ending, but another waits: held
		endFamily(1, 1, false, true, false),   // ending, none waits, 71 >= 50: landed
		endFamily(1, 60, false, true, false))  // the long one alone
	if want := "[4 1]"; got != want {
		t.Errorf("batches %s, want %s", got, want)
	}
	// Not ending: half the limit lands nothing early.
	got = landAll(t, 100, 100, endFamily(1, 60, false, false, false), endFamily(1, 30, false, false, false), endFamily(1, 20, false, false, false))
	if want := "[3]"; got != want {
		t.Errorf("not ending: batches %s, want %s", got, want)
	}
}
