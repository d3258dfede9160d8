package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// memSample is one line of `docket load --memory-trace FILE`: where the
// main process's memory is, once a second. Sizes are bytes.
type memSample struct {
	Seconds float64 `json:"t"`
	Phase   string  `json:"phase"`
	// RSS and HWM: the process's resident set now and at its highest
	// (/proc/self/status VmRSS, VmHWM).
	RSS int64 `json:"rss"`
	HWM int64 `json:"hwm"`
	Go  goMem `json:"go"`
	// DuckDB: its buffer pool by tag (absent before the warehouse opens
	// and after it closes). DuckDB may take a while to answer (through a
	// checkpoint): a sample does not wait for it past 200 ms and holds
	// its last answer, DuckDBAge seconds old.
	DuckDB    *warehouse.Memory        `json:"duckdb,omitempty"`
	DuckDBAge float64                  `json:"duckdb_age,omitempty"`
	Alloc     warehouse.AllocatorStats `json:"alloc"`
	// Outside: RSS less the Go runtime's resident memory and DuckDB's
	// pool: C allocations outside DuckDB's buffer manager, the
	// allocators' caches and fragmentation, code and mapped files.
	Outside int64 `json:"outside"`
}

// goMem is the Go runtime's view (runtime/metrics).
type goMem struct {
	Objects  int64 `json:"heap_objects"`  // live and not yet swept heap objects
	Live     int64 `json:"heap_live"`     // live heap as of the last GC
	Goal     int64 `json:"heap_goal"`     // the next GC's heap goal
	Unused   int64 `json:"heap_unused"`   // heap spans' free slots
	Free     int64 `json:"heap_free"`     // free spans not returned to the system
	Released int64 `json:"heap_released"` // returned to the system
	Stacks   int64 `json:"stacks"`
	Other    int64 `json:"other"`    // metadata, profiling buckets, runtime structures
	Resident int64 `json:"resident"` // total mapped less released
}

var goMetrics = []string{
	"/memory/classes/heap/objects:bytes", "/gc/heap/live:bytes", "/gc/heap/goal:bytes",
	"/memory/classes/heap/unused:bytes", "/memory/classes/heap/free:bytes", "/memory/classes/heap/released:bytes",
	"/memory/classes/heap/stacks:bytes", "/memory/classes/os-stacks:bytes", "/memory/classes/total:bytes",
}

func readGoMem() goMem {
	s := make([]metrics.Sample, len(goMetrics))
	for i, n := range goMetrics {
		s[i].Name = n
	}
	metrics.Read(s)
	v := func(i int) int64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(s[i].Value.Uint64())
	}
	g := goMem{Objects: v(0), Live: v(1), Goal: v(2), Unused: v(3), Free: v(4), Released: v(5), Stacks: v(6) + v(7)}
	g.Resident = v(8) - g.Released
	g.Other = g.Resident - g.Objects - g.Unused - g.Free - g.Stacks
	return g
}

// procStatus reads VmRSS and VmHWM (bytes) from /proc/self/status.
func procStatus() (rss, hwm int64) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) < 2 {
			continue
		}
		n, _ := strconv.ParseInt(string(f[1]), 10, 64)
		switch string(f[0]) {
		case "VmRSS:":
			rss = n << 10
		case "VmHWM:":
			hwm = n << 10
		}
	}
	return rss, hwm
}

// memTrace writes a memSample a second to a file, and the Go heap
// profile to FILE.heap each time the resident set passes its highest
// profiled value by 8 MiB (so the profile shows the heap near the peak).
type memTrace struct {
	path  string
	f     *os.File
	enc   *json.Encoder
	start time.Time
	phase atomic.Value // string
	db    atomic.Pointer[warehouse.DB]
	mu    sync.Mutex // sample and close
	prof  int64      // RSS at the last heap profile
	// asking is DuckDB's answer in flight (closed when it came), last
	// the last answer a sample took, answer one not taken yet.
	asking chan struct{}
	last   *duckAnswer
	answer atomic.Pointer[duckAnswer]
	stop   chan struct{}
	done   chan struct{}
}

// startMemTrace creates path and starts sampling (nil, nil when path is "").
func startMemTrace(path string) (*memTrace, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	t := &memTrace{path: path, f: f, enc: json.NewEncoder(f), start: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	t.phase.Store("start")
	t.sample()
	go t.run()
	return t, nil
}

func (t *memTrace) run() {
	defer close(t.done)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-t.stop:
			return
		case <-tick.C:
			t.sample()
		}
	}
}

// setPhase names what the load does from now on, and takes a sample
// (a phase shorter than a second has one too).
func (t *memTrace) setPhase(p string) {
	if t != nil {
		t.phase.Store(p)
		t.sample()
	}
}

// setDB is the warehouse to read DuckDB's memory from (nil: none).
// It waits for a sample in progress, so DuckDB is not asked once setDB(nil)
// returned.
func (t *memTrace) setDB(db *warehouse.DB) {
	if t != nil {
		t.mu.Lock()
		if t.asking != nil {
			<-t.asking
			t.asking = nil
		}
		t.db.Store(db)
		t.last = nil
		t.answer.Store(nil)
		t.mu.Unlock()
	}
}

// duckAnswer is DuckDB's memory and when it was read.
type duckAnswer struct {
	m  warehouse.Memory
	at time.Time
}

// duckDB asks DuckDB for its memory unless a question is in flight, and
// returns the latest answer if the question takes longer than 200 ms
// (t.mu held).
func (t *memTrace) duckDB(db *warehouse.DB) *duckAnswer {
	if t.asking == nil {
		ch := make(chan struct{})
		t.asking = ch
		go func() {
			defer close(ch)
			if m, err := db.Memory(context.Background()); err == nil {
				t.answer.Store(&duckAnswer{m: m, at: time.Now()})
			}
		}()
	}
	select {
	case <-t.asking:
		t.asking = nil
	case <-time.After(200 * time.Millisecond):
	}
	if a := t.answer.Swap(nil); a != nil {
		t.last = a
	}
	return t.last
}

func (t *memTrace) sample() {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := memSample{Seconds: time.Since(t.start).Seconds(), Phase: t.phase.Load().(string), Go: readGoMem(), Alloc: warehouse.Allocators()}
	s.RSS, s.HWM = procStatus()
	if db := t.db.Load(); db != nil {
		if a := t.duckDB(db); a != nil {
			s.DuckDB, s.DuckDBAge = &a.m, time.Since(a.at).Seconds()
		}
	}
	s.Outside = s.RSS - s.Go.Resident
	if s.DuckDB != nil {
		s.Outside -= s.DuckDB.Usage
	}
	t.enc.Encode(s)
	if s.RSS > t.prof+8<<20 {
		t.prof = s.RSS
		t.heapProfile()
	}
}

func (t *memTrace) heapProfile() {
	f, err := os.Create(t.path + ".heap.tmp")
	if err != nil {
		return
	}
	err = pprof.Lookup("heap").WriteTo(f, 0)
	if f.Close() == nil && err == nil {
		os.Rename(t.path+".heap.tmp", t.path+".heap")
	}
}

// Close writes a last sample and closes the file.
func (t *memTrace) Close() error {
	if t == nil {
		return nil
	}
	close(t.stop)
	<-t.done
	t.setDB(nil)
	t.setPhase("end")
	return t.f.Close()
}
