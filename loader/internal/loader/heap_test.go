package loader

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/extract/version"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/internal/worker"
)

// TestExecuteHeapPerDocument: what the run keeps per document extracted
// (to recognise a later file with the same bytes) is a table entry, not
// the document's facts: the live heap Execute adds by the time its last
// titled document went to the sink grows by under 200 bytes per
// document from N to 4N documents (a first load of 200k kept ~550 bytes
// per document to its end). Execute also releases the plan's files it
// ran, so the figure may come out below zero.
func TestExecuteHeapPerDocument(t *testing.T) {
	const n = 250
	small, big := executeHeap(t, n), executeHeap(t, 4*n)
	per := (big - small) / (3 * n)
	t.Logf("Execute's live heap at its last document: %d bytes for %d documents, %d for %d: %d bytes per document", small, n, big, 4*n, per)
	if per > 200 {
		t.Errorf("the run keeps %d bytes per document extracted, want under 200", per)
	}
}

// executeHeap executes a first load of n titled HTML documents and
// returns the live heap added since before Execute, measured when the
// last family reaches the sink (nothing else in flight).
func executeHeap(t *testing.T, n int) int64 {
	p, src := planProject(t)
	for i := 0; i < n; i++ {
		write(t, src, fmt.Sprintf("doc%04d.html", i), fmt.Sprintf(
			"<html><head><title>Quarterly report number %d on the stock of every warehouse</title></head>"+
				"<body><p>Document %d lists the warehouses and their stock levels in plain words.</p></body></html>\n", i, i))
	}
	st := &State{Known: map[string]warehouse.Known{}, Extractions: map[string]warehouse.Extraction{}, OCR: map[string]bool{}}
	plan := mustPlan(t, st, List(p, nil), Options{Project: p})
	exe, _ := os.Executable()
	pool := worker.NewPool(worker.PoolOptions{Command: []string{exe, "worker"}, Env: []string{"DOCKET_TEST_AS_DOCKET=1"}, Size: 2, Timeout: time.Minute, Versions: version.All()})
	defer pool.Close()
	pool.Warm()
	live := func() int64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	done, titled := 0, 0
	var grown int64
	before := live()
	err := Execute(context.Background(), plan, plan.Todo(), Options{Project: p}, pool, &Summary{}, func(f Family) error {
		if c := f.Landings[0].Content; c != nil && c.Metadata.Title != "" {
			titled++
		}
		if done++; done == n {
			grown = live() - before
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if titled != n {
		t.Fatalf("%d of %d documents extracted with a title", titled, n)
	}
	return grown
}

// TestExecuteMarksTheTail: the families finished once every file had
// gone to a worker are marked Tail (their workers have nothing left, so
// the Writer lands them at once): the last family always, and at most
// one per worker, each worker's last.
func TestExecuteMarksTheTail(t *testing.T) {
	const n, workers = 40, 2
	p, src := planProject(t)
	for i := 0; i < n; i++ {
		write(t, src, fmt.Sprintf("doc%04d.txt", i), fmt.Sprintf("Note %d on the stock of the warehouse.\n", i))
	}
	st := &State{Known: map[string]warehouse.Known{}, Extractions: map[string]warehouse.Extraction{}, OCR: map[string]bool{}}
	plan := mustPlan(t, st, List(p, nil), Options{Project: p})
	exe, _ := os.Executable()
	pool := worker.NewPool(worker.PoolOptions{Command: []string{exe, "worker"}, Env: []string{"DOCKET_TEST_AS_DOCKET=1"}, Size: workers, Timeout: time.Minute, Versions: version.All()})
	defer pool.Close()
	p.Loader.Workers = workers
	var tails []bool
	err := Execute(context.Background(), plan, plan.Todo(), Options{Project: p}, pool, &Summary{}, func(f Family) error {
		tails = append(tails, f.Tail)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	marked := 0
	for _, tail := range tails {
		if tail {
			marked++
		}
	}
	if len(tails) != n || !tails[len(tails)-1] || marked > workers {
		t.Errorf("%d families, %d marked Tail (want 1 to %d), the last one marked: %v", len(tails), marked, workers, len(tails) > 0 && tails[len(tails)-1])
	}
}
