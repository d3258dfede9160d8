package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"

	"github.com/docket-dev/docket/loader/internal/worker"
)

func TestFloorPercent(t *testing.T) {
	cases := []struct {
		live, scan, floor uint64
		pct, want         int
	}{
		{0, 0, 32 << 20, 25, 25},                // nothing measured yet
		{4 << 20, 0, 32 << 20, 25, 700},         // goal 32 MB, not 5 MB
		{16 << 20, 0, 32 << 20, 25, 100},        // goal 32 MB, not 20 MB
		{4 << 20, 4 << 20, 32 << 20, 25, 350},   // stacks and globals count: 4 + 8 x 3.5 = 32 MB
		{256 << 10, 1 << 20, 32 << 20, 25, 800}, // the runtime's minimum, 4 MB x 8 = 32 MB, not ~330 MB
		{30 << 20, 0, 32 << 20, 25, 25},         // 1.25x is over the floor already
		{80 << 20, 0, 32 << 20, 25, 25},         // 50k documents: unchanged
	}
	for _, c := range cases {
		got := floorPercent(c.live, c.scan, c.floor, c.pct)
		if got != c.want {
			t.Errorf("floorPercent(%d, %d, %d, %d) = %d, want %d", c.live, c.scan, c.floor, c.pct, got, c.want)
		}
		// the runtime's goal: the formula, never under its minimum
		goal := max(c.live+(c.live+c.scan)*uint64(got)/100, heapMinimum*uint64(got)/100)
		if c.live > 0 && goal > max(c.floor, c.live*5/4)+(c.live+c.scan)/100 {
			t.Errorf("floorPercent(%d, %d, %d, %d): goal %d, over the floor by more than 1 %%", c.live, c.scan, c.floor, c.pct, goal)
		}
	}
}

// TestLoadCollectsRarelyOnASmallHeap: with a few MB live, the load's
// collector runs once per 32 MB allocated, not every 1.25x of the live
// heap (58 collections in a load of 149 PDFs).
func TestLoadCollectsRarelyOnASmallHeap(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	runtime.GC()
	stop := heapFloor(loadHeapFloor, 25) // reads the live heap the GC above measured
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	start := ms.NumGC
	var keep [][]byte
	for i := 0; i < 4096; i++ { // 64 MB allocated, ~nothing live
		b := make([]byte, 16<<10)
		if i%512 == 0 {
			keep = append(keep, b)
		}
	}
	runtime.ReadMemStats(&ms)
	stop()
	if n := ms.NumGC - start; n > 4 {
		t.Errorf("%d collections for 64 MB allocated on a heap of %d MB live; want at most 4 (goal >= 32 MB)", n, ms.HeapAlloc>>20)
	}
	if got := debug.SetGCPercent(before); got != 100 {
		t.Errorf("GC percent after stop = %d, want the 100 set before", got)
	}
	_ = keep
}

// TestLoadHeapGoalIsTheFloor: on a small live heap the collector's goal
// is the floor, not a multiple of it. The runtime's goal also counts the
// stacks and globals it scans (live + (live + stacks + globals) x
// GOGC/100): a percentage worked out from the live heap alone let a 20k
// document load plan with a goal of ~180 MB.
func TestLoadHeapGoalIsTheFloor(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	runtime.GC()
	stop := heapFloor(loadHeapFloor, 25)
	defer stop()
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}, {Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}
	metrics.Read(s)
	goal, live, scan := s[0].Value.Uint64(), s[1].Value.Uint64(), s[2].Value.Uint64()+s[3].Value.Uint64()
	if live >= loadHeapFloor {
		t.Skipf("live heap %d MB: over the floor, nothing to check", live>>20)
	}
	if goal > loadHeapFloor+(live+scan)/100+(64<<10) { // one percent step over it at most

		t.Errorf("heap goal %.1f MB with %.1f MB live; want about the %d MB floor", float64(goal)/(1<<20), float64(live)/(1<<20), loadHeapFloor>>20)
	}
}

// TestLoadAdvisesHeapOnlyWhenExtracting: a load with a file to extract
// advises loadHeapFloor of Go heap for huge pages once (after its plan);
// a re-load that finds nothing new does not advise at all, and one that
// finds a changed file does again.
func TestLoadAdvisesHeapOnlyWhenExtracting(t *testing.T) {
	dir := textProject(t)
	var calls []int
	adviseHeap = func(n int) (uintptr, uintptr) { calls = append(calls, n); return 0, 0 }
	defer func() { adviseHeap = worker.AdviseHugeHeap }()
	load := func() {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := Main([]string{"load", "--quiet", "--project", dir}, &out, &errOut); code != 0 {
			t.Fatalf("docket load: exit %d\n%s%s", code, out.String(), errOut.String())
		}
	}
	load()
	if len(calls) != 1 || calls[0] != loadHeapFloor {
		t.Fatalf("first load (one new file): advised %v, want [%d]", calls, loadHeapFloor)
	}
	load()
	if len(calls) != 1 {
		t.Fatalf("no-op re-load: advised %v, want no advice", calls[1:])
	}
	os.WriteFile(filepath.Join(dir, "docs", "a.txt"), []byte("The same document, changed.\n"), 0o644)
	load()
	if len(calls) != 2 || calls[1] != loadHeapFloor {
		t.Fatalf("re-load with a changed file: advised %v, want [%d]", calls[1:], loadHeapFloor)
	}
}
