package loader_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/loader"
)

// TestFirstLoadExtractsWhileTheTablesAreMade: a new warehouse's first
// files go to the workers while its tables are created and the run
// recorded (the workers waited 0.1-0.3 s for those DuckDB statements),
// and nothing is landed before the run is recorded. The hook at
// "planned" (the run and the plan recorded) waits for the first
// extraction: a load that records the run before it extracts would wait
// there for good (up to the test's minute), and the first landing must
// come after "planned". The second load of the same warehouse (not new)
// records its run first, as before.
func TestFirstLoadExtractsWhileTheTablesAreMade(t *testing.T) {
	dir := textProject(t, 20)
	l := newInProcess(t, dir)
	var mu sync.Mutex
	var points []string
	extracting := make(chan struct{})
	var once sync.Once
	loader.Hooks.At = func(point string) {
		if point == "planned" {
			select {
			case <-extracting:
			case <-time.After(time.Minute):
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if strings.HasPrefix(point, "extract:") {
			once.Do(func() { close(extracting) })
			if point != "extract:1" {
				return
			}
		}
		points = append(points, point)
	}
	defer func() { loader.Hooks.At = nil }()
	l.load(false)
	mu.Lock()
	got := strings.Join(points, " ")
	mu.Unlock()
	if !strings.HasPrefix(got, "extract:1 planned land:1") {
		t.Errorf("first load's hook points %q, want extract:1, then planned, then land:1", got)
	}
	// A later load (nothing new) records its run before planning.
	points = nil
	loader.Hooks.At = func(point string) { mu.Lock(); points = append(points, point); mu.Unlock() }
	if sum := l.load(false); sum.Unchanged != 20 {
		t.Fatalf("second load: %d unchanged, want 20", sum.Unchanged)
	}
	if got := strings.Join(points, " "); !strings.HasPrefix(got, "planned") {
		t.Errorf("second load's hook points %q, want planned first", got)
	}
}
