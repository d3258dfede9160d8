package cli

import (
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/docket-dev/docket/loader/internal/worker"
)

// loadHeapFloor is the smallest heap goal the load's collector aims at.
// With GOGC 25 alone, the goal is 1.25x the live heap: on a load whose
// live heap is a few MB (149 PDFs: 2-5 MB) that was a collection every
// 10-20 ms (58 in a 6 s load) and ~12 % of the main process's CPU in the
// collector (perf). A floor of 32 MB costs at most that much resident
// memory where the heap is small, and nothing at 50k documents (50-80 MB
// live: the floor is under 1.25x live there).
const loadHeapFloor = 32 << 20

// adviseHeap is worker.AdviseHugeHeap; a load with files to extract calls
// it with loadHeapFloor once the plan is made (loader.Options.Extracting),
// so that the heap the GC floor keeps a small load in grows on
// transparent huge pages, a 2 MiB page a fault (a first touch costs
// ~10-17 us on this paravirtualized VM). On the 149 PDFs bench-load
// reads (session 24, alternating runs, load average 8-16): the main
// process's minor faults 27-30k -> 21-25k a load, its CPU 1.03-1.17 s ->
// 0.92-1.12 s (medians 1.10 -> 0.97 s); its peak RSS 119-128 -> 122-145 MB:
// resident memory grows only where a 2 MiB page is partly used, at most
// the 32 MiB advised. A load that extracts nothing (a no-op re-load of a
// large warehouse) does not advise: it would gain nothing. Tests replace
// it.
var adviseHeap = worker.AdviseHugeHeap

// floorPercent is the GC percentage that gives a heap goal of at least
// floor bytes for a live heap of live bytes, the collector also scanning
// scan bytes of stacks and globals: pct, or more while the goal is under
// floor. The runtime's goal is live + (live + scan) x percent/100, and
// never under its heap minimum, 4 MB x percent/100: the percentage is
// capped where that minimum is the floor (800 for 32 MB). Worked out from
// the live heap alone (floor/live), the load's start (~300 KB live) got a
// percentage in the thousands and a goal of 120-190 MB, which a load
// reached while it planned (20k documents: peak RSS ~300 MB there).
func floorPercent(live, scan, floor uint64, pct int) int {
	if live == 0 || live+(live+scan)*uint64(pct)/100 >= floor {
		return pct
	}
	p := int(((floor-live)*100 + live + scan - 1) / (live + scan))
	return max(pct, min(p, int(floor*100/heapMinimum)))
}

// heapMinimum is the Go runtime's smallest heap goal at GOGC 100
// (runtime.defaultHeapMinimum); it scales with the percentage.
const heapMinimum = 4 << 20

// heapScan is the live heap as of the last GC and the stacks and globals
// the collector scans besides.
func heapScan() (live, scan uint64) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64() + s[2].Value.Uint64()
}

// heapFloor sets the GC percentage to pct, raised while the live heap is
// small so that the heap goal stays at least floor (see floorPercent);
// it reads the live heap at once and then every 50 ms. The returned
// function stops it and restores the percentage set before.
func heapFloor(floor uint64, pct int) func() {
	live, scan := heapScan()
	cur := floorPercent(live, scan, floor, pct)
	before := debug.SetGCPercent(cur)
	stop := onLiveHeap(50*time.Millisecond, func(uint64) {
		live, scan := heapScan()
		if p := floorPercent(live, scan, floor, pct); p != cur {
			debug.SetGCPercent(p)
			cur = p
		}
	})
	return func() { stop(); debug.SetGCPercent(before) }
}
