package cli

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestFloorPercent(t *testing.T) {
	cases := []struct {
		live, floor uint64
		pct, want   int
	}{
		{0, 32 << 20, 25, 25},         // nothing measured yet
		{4 << 20, 32 << 20, 25, 700},  // goal 32 MB, not 5 MB
		{16 << 20, 32 << 20, 25, 100}, // goal 32 MB, not 20 MB
		{30 << 20, 32 << 20, 25, 25},  // 1.25x is over the floor already
		{80 << 20, 32 << 20, 25, 25},  // 50k documents: unchanged
	}
	for _, c := range cases {
		if got := floorPercent(c.live, c.floor, c.pct); got != c.want {
			t.Errorf("floorPercent(%d, %d, %d) = %d, want %d", c.live, c.floor, c.pct, got, c.want)
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
