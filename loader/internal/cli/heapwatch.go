package cli

import (
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// heapWatch writes the Go heap profile to path whenever the live heap
// (as of the last GC) passes 1.2 times the live heap of the profile
// written last, so the file shows what the heap held near its peak; a
// measuring aid (DOCKET_MEMPROFILE), off unless asked for. The returned
// function stops it.
func heapWatch(path string) func() {
	var last uint64
	return onLiveHeap(500*time.Millisecond, func(live uint64) {
		if live < last*6/5 || live < 16<<20 {
			return
		}
		last = live
		if f, err := os.Create(path + ".tmp"); err == nil {
			err = pprof.Lookup("heap").WriteTo(f, 0)
			if f.Close() == nil && err == nil {
				os.Rename(path+".tmp", path)
			}
		}
	})
}

// liveHeap is the live heap as of the last GC.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// onLiveHeap calls fn with the live heap every interval, from a goroutine
// of its own, until the returned function is called (it waits for the
// goroutine to end).
func onLiveHeap(interval time.Duration, fn func(live uint64)) func() {
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			fn(liveHeap())
		}
	}()
	return func() { close(stop); <-done }
}
