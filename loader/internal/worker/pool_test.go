package worker

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestMain doubles as the worker process: the pool re-executes the test
// binary with DOCKET_TEST_AS_WORKER=1.
func TestMain(m *testing.M) {
	if os.Getenv("DOCKET_TEST_AS_WORKER") == "wrongwire" {
		// Greets, answers the first request with a frame of wire version
		// 99 and stays alive.
		var e encoder
		e.hello(testVersions)
		writeFrame(os.Stdout, &e)
		os.Stdin.Read(make([]byte, 64))
		os.Stdout.Write([]byte{2, 0, 0, 0, 99, 0})
		time.Sleep(time.Hour)
	}
	if os.Getenv("DOCKET_TEST_AS_WORKER") == "silent" {
		time.Sleep(time.Hour) // never greets
	}
	if os.Getenv("DOCKET_TEST_AS_WORKER") == "oldwire" {
		// A worker of a build from before the hello: answers the first
		// request (wire version 2) and stays alive.
		os.Stdin.Read(make([]byte, 64))
		os.Stdout.Write([]byte{2, 0, 0, 0, 2, 0})
		time.Sleep(time.Hour)
	}
	if os.Getenv("DOCKET_TEST_AS_WORKER") == "1" {
		in, out, err := ProtocolStdio()
		if err != nil {
			os.Exit(3)
		}
		versions := testVersions
		if f := os.Getenv("DOCKET_TEST_DIE_AT_START"); f != "" {
			if _, err := os.Stat(f); err == nil {
				os.Exit(5) // a restart that dies before greeting
			}
		}
		if f := os.Getenv("DOCKET_TEST_GREET_WRONG"); f != "" {
			if _, err := os.Stat(f); err == nil {
				versions = "pdf/1+other/1" // a build the pool is not
			}
		}
		err = Serve(context.Background(), in, out, versions, func(_ context.Context, r Request) (*document.Result, error) {
			if err := pipelineRules(r, out); err != nil {
				return nil, err
			}
			if strings.Contains(filepath.Base(r.Path), "pid") {
				return &document.Result{Type: "text", Pages: []document.Page{{Number: 1, Text: strconv.Itoa(os.Getpid())}}}, nil
			}
			if strings.Contains(r.Path, "crashme") {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
			if strings.Contains(r.Path, "hangme") {
				time.Sleep(time.Hour)
			}
			if strings.Contains(r.Path, "bad") {
				return nil, document.Errorf(document.KindCorrupt, "%s is bad", r.Path)
			}
			if strings.Contains(r.Path, "panic") {
				panic("boom")
			}
			if strings.Contains(r.Path, "tunables") {
				return &document.Result{Type: "text", Pages: []document.Page{{Number: 1, Text: os.Getenv("GLIBC_TUNABLES")}}}, nil
			}
			if strings.Contains(r.Path, "grow") {
				b := make([]byte, 96<<20)
				for i := range b {
					b[i] = 1
				}
				if strings.Contains(r.Path, "-gc") {
					runtime.GC() // a collection while the document is live
				}
				return &document.Result{Type: "text", Pages: []document.Page{{Number: 1, Text: strconv.Itoa(int(b[len(b)-1]))}}}, nil
			}
			if strings.Contains(r.Path, "hold") {
				held = make([]byte, 64<<20) // live from now on: the goal stays ~320 MiB
				for i := range held {
					held[i] = 1
				}
				runtime.GC()
			}
			if strings.Contains(r.Path, "forcedgc") {
				g := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
				metrics.Read(g)
				return &document.Result{Type: "text", Pages: []document.Page{{Number: 1, Text: strconv.FormatUint(g[0].Value.Uint64(), 10)}}}, nil
			}
			if strings.Contains(r.Path, "heapgoal") {
				g := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
				metrics.Read(g)
				return &document.Result{Type: "text", Pages: []document.Page{{Number: 1, Text: strconv.FormatUint(g[0].Value.Uint64(), 10)}}}, nil
			}
			if strings.Contains(r.Path, "gcpercent") {
				gc := debug.SetGCPercent(-1) // read it back unchanged
				debug.SetGCPercent(gc)
				return &document.Result{Type: "text", Pages: []document.Page{{Number: 1, Text: strconv.Itoa(gc)}}}, nil
			}
			os.Stdout.WriteString("noise on stdout must not break the protocol\n")
			if strings.Contains(r.Path, "big") {
				b := make([]byte, 300<<20)
				for i := range b {
					b[i] = 1
				}
				// Only the memory limit can end this: a pool whose time-out
				// is long reports too_large, not timeout, however slow the
				// machine is at touching 300 MB.
				time.Sleep(time.Hour)
				_ = b[len(b)-1]
			}
			return &document.Result{Type: "text", Pages: []document.Page{{Number: 1, Text: "text of " + r.Path}}}, nil
		})
		if err != nil {
			os.Exit(4)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// held is what the test worker's "hold" document keeps live.
var held []byte

// testVersions is what the test workers greet with (docket's workers
// greet with version.All()).
const testVersions = "pdf/7+text/3"

// newPool is a pool of test workers whose time-out is far away, so no
// outcome depends on how busy the machine is (a worker's start counts
// against it: under load 11 TestPeakIsTheWorkersOwn's first request timed
// out at 3 s). A test of the time-out itself sets a short one
// (newPoolTimeout).
func newPool(t *testing.T, size int, extraEnv ...string) *Pool {
	return newPoolTimeout(t, size, time.Minute, extraEnv...)
}

func newPoolTimeout(t *testing.T, size int, timeout time.Duration, extraEnv ...string) *Pool {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := NewPool(PoolOptions{Command: []string{exe}, Env: append([]string{"DOCKET_TEST_AS_WORKER=1"}, extraEnv...),
		Size: size, Timeout: timeout, MaxMemory: 200 << 20, Versions: testVersions})
	t.Cleanup(p.Close)
	return p
}

func TestPoolOutcomes(t *testing.T) {
	p := newPoolTimeout(t, 2, 3*time.Second) // hangme.pdf is stopped at the time-out
	ctx := context.Background()
	cases := []struct {
		path, kind, text string
	}{
		{"a.txt", "", "text of a.txt"},
		{"bad.txt", document.KindCorrupt, ""},
		{"crashme.pdf", document.KindCrash, ""},
		{"b.txt", "", "text of b.txt"}, // the crashed worker was replaced
		{"panic.txt", document.KindCrash, ""},
		{"hangme.pdf", document.KindTimeout, ""},
		{"c.txt", "", "text of c.txt"},
	}
	for i, c := range cases {
		resp, err := p.Extract(ctx, Request{ID: int64(i), Path: c.path})
		if err != nil {
			t.Fatalf("%s: pool error %v", c.path, err)
		}
		if c.kind == "" {
			if resp.Err != nil || resp.Result == nil || resp.Result.Pages[0].Text != c.text {
				t.Fatalf("%s: got %+v", c.path, resp)
			}
			continue
		}
		if resp.Err == nil || resp.Err.Kind != c.kind {
			t.Fatalf("%s: want kind %s, got %+v", c.path, c.kind, resp.Err)
		}
		if c.kind == document.KindCrash && c.path == "crashme.pdf" && !strings.Contains(resp.Err.Msg, "killed") {
			t.Errorf("crash message should name the signal: %q", resp.Err.Msg)
		}
	}
}

// TestPoolMemoryLimit: a worker over loader.max_worker_memory is stopped
// and the document is too_large. Its pool's time-out is far away, so the
// outcome does not depend on how busy the machine is.
func TestPoolMemoryLimit(t *testing.T) {
	p := newPoolTimeout(t, 1, 10*time.Minute)
	resp, err := p.Extract(context.Background(), Request{ID: 1, Path: "big.bin"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Err == nil || resp.Err.Kind != document.KindTooLarge {
		t.Fatalf("big.bin: want kind too_large, got %+v", resp.Err)
	}
	if resp2, err := p.Extract(context.Background(), Request{ID: 2, Path: "c.txt"}); err != nil || resp2.Err != nil {
		t.Fatalf("after a memory stop the pool must serve again: %+v %v", resp2, err)
	}
}

// TestPoolWarm: Warm starts every worker up front; they then serve
// requests with the garbage collector back on (it is off only while the
// worker process initialises).
func TestPoolWarm(t *testing.T) {
	p := newPool(t, 2)
	if err := p.Warm(); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	started := len(p.all)
	p.mu.Unlock()
	if started != 2 {
		t.Fatalf("Warm started %d workers, want 2", started)
	}
	if err := p.Warm(); err != nil { // idempotent: nothing more to start
		t.Fatal(err)
	}
	p.mu.Lock()
	started = len(p.all)
	p.mu.Unlock()
	if started != 2 {
		t.Fatalf("a second Warm left %d workers, want 2", started)
	}
	for i := 0; i < 3; i++ {
		resp, err := p.Extract(context.Background(), Request{ID: int64(i), Path: "gcpercent"})
		if err != nil || resp.Err != nil {
			t.Fatalf("extract: %v %+v", err, resp)
		}
		if got := resp.Result.Pages[0].Text; got != strconv.Itoa(WorkerGCPercent) {
			t.Fatalf("worker GC percent = %s, want %d (GOGC=off must end before serving)", got, WorkerGCPercent)
		}
	}
	p.mu.Lock()
	started = len(p.all)
	p.mu.Unlock()
	if started != 2 {
		t.Fatalf("extractions after Warm started more workers: %d", started)
	}
}

// TestWorkerSettlesAfterABigDocument: a document that was collected while
// 96 MiB of it were live set the worker's heap goal to ~480 MiB (5x at GC
// 400 %); the worker collects before the next document, so the small
// documents after it find a goal under WorkerSoftMemory instead of growing
// the heap to 480 MiB.
func TestWorkerSettlesAfterABigDocument(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The default loader.max_worker_memory: GOMEMLIMIT 3 GiB does not cap the goal.
	p := NewPool(PoolOptions{Command: []string{exe}, Env: []string{"DOCKET_TEST_AS_WORKER=1"}, Size: 1, Timeout: 30 * time.Second,
		MaxMemory: 4 << 30, Versions: testVersions})
	t.Cleanup(p.Close)
	if resp, err := p.Extract(context.Background(), Request{ID: 1, Path: "grow-gc"}); err != nil || resp.Err != nil {
		t.Fatalf("extract: %v %+v", err, resp)
	}
	resp, err := p.Extract(context.Background(), Request{ID: 2, Path: "heapgoal"})
	if err != nil || resp.Err != nil {
		t.Fatalf("extract: %v %+v", err, resp)
	}
	goal, _ := strconv.ParseUint(resp.Result.Pages[0].Text, 10, 64)
	if goal == 0 || goal > WorkerSoftMemory {
		t.Errorf("heap goal after a big document: %d MiB, want at most WorkerSoftMemory (%d MiB)", goal>>20, WorkerSoftMemory>>20)
	}
}

// TestWorkerSettlesOnce: a worker whose live heap stays at 64 MiB (its
// goal ~320 MiB, over WorkerSoftMemory) settles after the document that
// grew it, not again after every document (a forced collection and
// scavenge each time with nothing to give back).
func TestWorkerSettlesOnce(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := NewPool(PoolOptions{Command: []string{exe}, Env: []string{"DOCKET_TEST_AS_WORKER=1"}, Size: 1, Timeout: 30 * time.Second,
		MaxMemory: 4 << 30, Versions: testVersions})
	t.Cleanup(p.Close)
	forced := make([]string, 3)
	for i, path := range []string{"hold", "forcedgc", "forcedgc", "forcedgc"} {
		resp, err := p.Extract(context.Background(), Request{ID: int64(i), Path: path})
		if err != nil || resp.Err != nil {
			t.Fatalf("extract %s: %v %+v", path, err, resp)
		}
		if i > 0 {
			forced[i-1] = resp.Result.Pages[0].Text
		}
	}
	if forced[0] != forced[1] || forced[1] != forced[2] {
		t.Errorf("forced collections seen by three small documents after the heap grew: %v, want the same count (one settle, before them)", forced)
	}
}

// TestPeakIsTheWorkersOwn: PeakRSS is the workers' own high-water mark,
// not the loader's. A worker started while the loader holds 256 MiB
// reported ~256 MiB when its peak came from wait4 (the kernel carries the
// parent's high-water mark into a vfork'd child at its exec); a worker
// that touched 96 MiB reports at least that.
func TestPeakIsTheWorkersOwn(t *testing.T) {
	held := make([]byte, 256<<20)
	for i := range held {
		held[i] = 1
	}
	p := newPool(t, 1)
	if resp, err := p.Extract(context.Background(), Request{ID: 1, Path: "a.txt"}); err != nil || resp.Err != nil {
		t.Fatalf("extract: %v %+v", err, resp)
	}
	p.Close()
	if got := p.PeakRSS(); got <= 0 || got >= 128<<20 {
		t.Errorf("a worker that extracted one small file peaked at %d MiB (the loader holds 256 MiB), want (0, 128)", got>>20)
	}
	runtime.KeepAlive(held)
	held = nil

	p = newPool(t, 1)
	if resp, err := p.Extract(context.Background(), Request{ID: 2, Path: "grow"}); err != nil || resp.Err != nil {
		t.Fatalf("extract: %v %+v", err, resp)
	}
	p.Close()
	if got := p.PeakRSS(); got < 96<<20 {
		t.Errorf("a worker that touched 96 MiB peaked at %d MiB, want at least 96", got>>20)
	}
}

// TestWorkerMallocTunables: workers run with glibc's one-arena setting,
// added before tunables the environment already sets.
func TestWorkerMallocTunables(t *testing.T) {
	for _, tc := range []struct{ env, want string }{
		{"", MallocTunables},
		{"GLIBC_TUNABLES=glibc.malloc.trim_threshold=4096", MallocTunables + ":glibc.malloc.trim_threshold=4096"},
	} {
		var extra []string
		if tc.env != "" {
			extra = append(extra, tc.env)
		}
		p := newPool(t, 1, extra...)
		resp, err := p.Extract(context.Background(), Request{ID: 1, Path: "tunables"})
		if err != nil || resp.Err != nil {
			t.Fatalf("extract: %v %+v", err, resp)
		}
		if got := resp.Result.Pages[0].Text; got != tc.want {
			t.Errorf("environment %q: worker's GLIBC_TUNABLES = %q, want %q", tc.env, got, tc.want)
		}
	}
}

// TestWorkerKeepsFreedMalloc: a worker's glibc keeps up to 8 MiB of freed
// memory instead of handing the top of its heap back at 128 KiB
// and unmapping every freed block of 128 KiB or more (MuPDF's per-page
// memory was touched fresh, a page fault per 4 KiB, page after page).
func TestWorkerKeepsFreedMalloc(t *testing.T) {
	p := newPool(t, 1)
	resp, err := p.Extract(context.Background(), Request{ID: 1, Path: "tunables"})
	if err != nil || resp.Err != nil {
		t.Fatalf("extract: %v %+v", err, resp)
	}
	got := map[string]int{}
	for _, kv := range strings.Split(resp.Result.Pages[0].Text, ":") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			got[k], _ = strconv.Atoi(v)
		}
	}
	for _, k := range []string{"glibc.malloc.trim_threshold", "glibc.malloc.mmap_threshold"} {
		if got[k] < 8<<20 {
			t.Errorf("worker's GLIBC_TUNABLES %q: %s = %d, want at least 8 MiB", resp.Result.Pages[0].Text, k, got[k])
		}
	}
}

// TestPoolChecksEveryWorkersHello: every worker process's first frame
// carries the extractor versions it was built with, and the pool uses no
// answer of a process that did not greet with its own: a process started
// again after a crash is checked too, and a program that is no worker of
// this build (it greets otherwise, speaks the frames of an older build, or
// exits at once like DOCKET_WORKER=/bin/true) is the pool's error, a
// *WrongWorker naming why, not a crash of every document. (Before, docket
// ran `docket-worker --versions` once per load, a process of its own.)
func TestPoolChecksEveryWorkersHello(t *testing.T) {
	wrong := filepath.Join(t.TempDir(), "greet-wrong")
	p := newPool(t, 1, "DOCKET_TEST_GREET_WRONG="+wrong)
	ctx := context.Background()
	if resp, err := p.Extract(ctx, Request{ID: 1, Path: "a.txt"}); err != nil || resp.Err != nil {
		t.Fatalf("a worker greeting with the pool's versions: %+v, %v", resp, err)
	}
	if err := os.WriteFile(wrong, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// the running process was checked at its start and goes on
	if resp, err := p.Extract(ctx, Request{ID: 2, Path: "crashme.pdf"}); err != nil || resp.Err == nil || resp.Err.Kind != document.KindCrash {
		t.Fatalf("crashme: %+v, %v; want a crash", resp, err)
	}
	// its replacement greets with another build's versions
	_, err := p.Extract(ctx, Request{ID: 3, Path: "b.txt"})
	var ww *WrongWorker
	if !errors.As(err, &ww) || !strings.Contains(err.Error(), `"pdf/1+other/1"`) || !strings.Contains(err.Error(), testVersions) ||
		!strings.Contains(err.Error(), "make build") {
		t.Errorf("a restarted worker of another build: %v; want a WrongWorker naming both versions and how to build", err)
	}

	exe, _ := os.Executable()
	for _, c := range []struct {
		cmd  []string
		env  string
		want string
	}{
		{[]string{"/bin/true"}, "", "ended before greeting"},
		{[]string{exe}, "DOCKET_TEST_AS_WORKER=oldwire", "wire version 2"},
	} {
		p := NewPool(PoolOptions{Command: c.cmd, Env: []string{c.env}, Size: 1, Timeout: time.Minute, Versions: testVersions})
		_, err := p.Extract(ctx, Request{ID: 1, Path: "a.txt"})
		p.Close()
		if !errors.As(err, &ww) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %s: %v; want a WrongWorker saying %q", c.cmd, c.env, err, c.want)
		}
	}
}

// TestPoolWorkerDyingAtRestartIsACrash: once a process of the pool has
// greeted right, the command is this build's worker: a later process
// that dies before greeting (OOM-killed at its start on a loaded machine)
// costs the document in hand a crash, and the load goes on (review26).
func TestPoolWorkerDyingAtRestartIsACrash(t *testing.T) {
	die := filepath.Join(t.TempDir(), "die")
	p := newPool(t, 1, "DOCKET_TEST_DIE_AT_START="+die)
	ctx := context.Background()
	if resp, err := p.Extract(ctx, Request{ID: 1, Path: "a.txt"}); err != nil || resp.Err != nil {
		t.Fatalf("first: %+v, %v", resp, err)
	}
	os.WriteFile(die, nil, 0o644)
	if resp, err := p.Extract(ctx, Request{ID: 2, Path: "crashme.pdf"}); err != nil || resp.Err == nil || resp.Err.Kind != document.KindCrash {
		t.Fatalf("crashme: %+v, %v", resp, err)
	}
	resp, err := p.Extract(ctx, Request{ID: 3, Path: "b.txt"})
	if err != nil || resp.Err == nil || resp.Err.Kind != document.KindCrash {
		t.Errorf("a restart dying before its hello: %+v, %v; want the document's crash, no pool error", resp, err)
	}
	os.Remove(die)
	if resp, err := p.Extract(ctx, Request{ID: 4, Path: "c.txt"}); err != nil || resp.Err != nil {
		t.Errorf("after it: %+v, %v", resp, err)
	}
}
