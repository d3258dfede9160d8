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
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var last uint64
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			metrics.Read(s)
			live := s[0].Value.Uint64()
			if live < last*6/5 || live < 16<<20 {
				continue
			}
			last = live
			if f, err := os.Create(path + ".tmp"); err == nil {
				err = pprof.Lookup("heap").WriteTo(f, 0)
				if f.Close() == nil && err == nil {
					os.Rename(path+".tmp", path)
				}
			}
		}
	}()
	return func() { close(stop); <-done }
}
