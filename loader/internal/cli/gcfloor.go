package cli

import (
	"runtime/debug"
	"time"
)

// loadHeapFloor is the smallest heap goal the load's collector aims at.
// With GOGC 25 alone, the goal is 1.25x the live heap: on a load whose
// live heap is a few MB (149 PDFs: 2-5 MB) that was a collection every
// 10-20 ms (58 in a 6 s load) and ~12 % of the main process's CPU in the
// collector (perf). A floor of 32 MB costs at most that much resident
// memory where the heap is small, and nothing at 50k documents (50-80 MB
// live: the floor is under 1.25x live there).
const loadHeapFloor = 32 << 20

// floorPercent is the GC percentage that gives a heap goal of at least
// floor bytes for a live heap of live bytes: pct, or more while
// live x (1 + pct/100) is under floor.
func floorPercent(live, floor uint64, pct int) int {
	if live == 0 || live*uint64(100+pct)/100 >= floor {
		return pct
	}
	return int(floor*100/live) - 100
}

// heapFloor sets the GC percentage to pct, raised while the live heap is
// small so that the heap goal stays at least floor (see floorPercent);
// it reads the live heap at once and then every 50 ms. The returned
// function stops it and restores the percentage set before.
func heapFloor(floor uint64, pct int) func() {
	cur := floorPercent(liveHeap(), floor, pct)
	before := debug.SetGCPercent(cur)
	stop := onLiveHeap(50*time.Millisecond, func(live uint64) {
		if p := floorPercent(live, floor, pct); p != cur {
			debug.SetGCPercent(p)
			cur = p
		}
	})
	return func() { stop(); debug.SetGCPercent(before) }
}
