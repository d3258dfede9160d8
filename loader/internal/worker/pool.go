package worker

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// PoolOptions configure a Pool.
type PoolOptions struct {
	Command   []string      // argv of the worker process, e.g. [/proc/self/exe, worker]
	Env       []string      // extra environment (OMP_THREAD_LIMIT=1 is always added, GOMAXPROCS=1 unless set)
	Size      int           // processes
	Timeout   time.Duration // per document
	MaxMemory int64         // bytes of resident memory per worker; 0 = no limit
	// Versions is what every worker process must greet with (its first
	// frame, see Serve): this build's extractor versions, version.All().
	Versions string
}

// A WrongWorker error: the worker command is not this build's extraction
// worker. It greeted with other extractor versions, answered with a frame
// of another wire version (a build from before the hello), or ended or
// hung before greeting (a program that is no docket-worker: /bin/true).
// Extract returns it as the pool's own error, not a document's: every
// document would fare the same, so the load stops with the reason.
type WrongWorker struct {
	Command string
	Why     string
}

func (e *WrongWorker) Error() string {
	return e.Command + " is not this docket's extraction worker: it " + e.Why +
		"; build both with `make build` (or go build -o bin/ ./loader/cmd/docket ./loader/cmd/docket-worker)"
}

// WorkerGCPercent is the Go GC percentage of worker processes (unless
// GOGC is set in the environment). A document's garbage is short-lived:
// collecting at 4x the live heap instead of 2x saved a few percent of
// extraction time when it was measured. GOMEMLIMIT (set from MaxMemory)
// bounds the heap all the same, and a worker collects after a document
// that left the heap's goal over WorkerSoftMemory.
const WorkerGCPercent = 400

// WorkerSoftMemory is the heap goal a worker leaves a document with:
// when a document left the Go heap's goal above it, the worker collects
// and gives the memory back before the next (settle, in Serve).
//
// At WorkerGCPercent the heap grows to 5x what was live at the last
// collection before the next one: a worker that collected while a big
// document was live (a 110 MB heap) would grow to ~550 MB on the small
// documents after it, and issue 15's memory targets count the largest
// process of a load, a worker included (/usr/bin/time's maximum resident
// set is the command's or any child's). A document's own peak is left
// alone: a GOMEMLIMIT of 256 MiB bounded it (a 30 MB HTML page: worker
// peak 2,433 -> 658 MiB) but cost that document 1.9x its CPU (24.7 ->
// 47.2 s: the collector ran back to back while the live heap was over the
// limit), and loader.max_worker_memory is the user's bound for one
// document.
const WorkerSoftMemory = 256 << 20

// Pool is a set of worker processes.
//
// Requests are pipelined: a process holds up to depth requests, the one
// it extracts and the next, written to its pipe while it still extracts
// (the worker reads the next one as soon as it has answered instead of
// waiting ~1 ms a document for the loader to read and decode its answer,
// finish the file and write the next request). Each process has one
// reader that takes its answers in the order the requests were written
// (see read), and blame follows that order: when a process ends, the
// request it was extracting (the oldest unanswered) gets the crash, the
// time-out or the memory stop, and a request queued behind it, which the
// process never began, is sent again to a fresh process, never blamed.
type Pool struct {
	opts  PoolOptions
	depth int // requests a process holds at most (see slot)
	mu    sync.Mutex
	slots []*slot
	freed chan struct{} // closed (and replaced) when a slot's call ends: acquire looks again
	all   map[*proc]bool
	peak  int64 // highest resident set of a stopped worker (its own VmHWM, see notePeak), bytes
	// greeted: some process of this pool greeted with its Versions, so
	// the command is this build's worker and a later process that ends or
	// hangs before greeting failed on its own (a crash or a time-out of
	// the document in hand), not a WrongWorker.
	greeted atomic.Bool
}

// requestsAhead is how many requests a process holds besides the one it
// extracts.
const requestsAhead = 1

// slot is a place for one worker process: the process it runs now and
// the Extract calls that hold it (a token each, at most Pool.depth). A
// process that ends leaves its slot's tokens with the slot, so its
// queued calls start one fresh process there, not one each.
type slot struct {
	calls int // Extract calls holding the slot (Pool.mu)
	// mu orders the requests written to the process (the reader takes
	// the answers in that order) and guards pr.
	mu sync.Mutex
	pr *proc // nil before the first use, or after its process ended
}

type proc struct {
	cmd    *exec.Cmd
	enc    encoder       // the requests' frames (slot.mu)
	out    *bufio.Reader // the responses' frames (the reader's)
	outR   *os.File      // out's pipe: closed by the reader when done (not by cmd.Wait, see start)
	stdin  io.WriteCloser
	stderr *tail
	done   chan struct{} // closed when the process exited
	kill   sync.Once
	// greeted: the process's hello was read and was this build's
	// versions (see greet).
	greeted atomic.Bool

	mu sync.Mutex
	// queue: the calls whose requests were written and not answered, in
	// order; queue[0] is the one being extracted.
	queue   []*call
	reading bool // the reader runs (started with the first request)
	ended   bool // the reader is done: no request may be added
	// stopped: the pool stopped the process for this call (time-out,
	// memory limit, a hello that never came, the caller's context), with
	// this verdict for it.
	stopped     *call
	stopVerdict verdict
}

// NewPool starts Size workers lazily (on first use, or at Warm).
func NewPool(opts PoolOptions) *Pool {
	if opts.Size < 1 {
		opts.Size = 1
	}
	p := &Pool{opts: opts, depth: 1 + requestsAhead, freed: make(chan struct{}), all: map[*proc]bool{}}
	for i := 0; i < opts.Size; i++ {
		p.slots = append(p.slots, &slot{})
	}
	return p
}

func (p *Pool) start() (*proc, error) {
	cmd := exec.Command(p.opts.Command[0], p.opts.Command[1:]...)
	// One document at a time, single-threaded C libraries: one Go P per
	// worker leaves the other cores to the other workers (a GOMAXPROCS the
	// user set wins: later entries override earlier ones).
	cmd.Env = append(append(append([]string{"GOMAXPROCS=1"}, os.Environ()...), "OMP_THREAD_LIMIT=1"), p.opts.Env...)
	if !hasEnv(cmd.Env, "GOGC") {
		// The collector is off during package initialisation and Serve
		// turns it on, at WorkerGCPercent. (It mattered when an HTML
		// dependency built ~80 MB of date-parsing tables at start-up;
		// initialisation now allocates ~3.4 MB, so this only saves a
		// collection or two.)
		cmd.Env = append(cmd.Env, "GOGC=off", fmt.Sprintf("%s=%d", EnvGCPercent, WorkerGCPercent))
		if p.opts.MaxMemory > 0 && !hasEnv(cmd.Env, "GOMEMLIMIT") {
			// With the collector relaxed, the soft limit keeps the Go heap
			// well under the limit at which the worker is killed.
			cmd.Env = append(cmd.Env, fmt.Sprintf("GOMEMLIMIT=%d", p.opts.MaxMemory/4*3))
		}
	}
	cmd.Env = withMallocTunables(cmd.Env)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// The answers' pipe is the pool's own, not cmd.StdoutPipe's, which
	// cmd.Wait closes as soon as the process exits: the reader must read
	// to the end what a dying process wrote (the answer before the one it
	// crashed on), or it would blame the crash on a document answered.
	outR, outW, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return nil, err
	}
	cmd.Stdout = outW
	t := &tail{max: 4096}
	cmd.Stderr = t
	err = cmd.Start()
	outW.Close() // the process has its copy
	if err != nil {
		outR.Close()
		stdin.Close()
		return nil, fmt.Errorf("worker: start %v: %w", p.opts.Command, err)
	}
	pr := &proc{cmd: cmd, out: bufio.NewReaderSize(outR, 1<<16), outR: outR, stdin: stdin, stderr: t, done: make(chan struct{})}
	go func() {
		cmd.Wait()
		close(pr.done)
	}()
	p.mu.Lock()
	p.all[pr] = true
	p.mu.Unlock()
	return pr, nil
}

// Warm starts every worker that is not running yet, without waiting for
// them to be ready, so that their start-up (package initialisation, about
// 0.1 s of CPU each) overlaps whatever the caller does before its first
// Extract. Workers busy in Extract calls are left alone.
func (p *Pool) Warm() error {
	var first error
	for _, s := range p.slots {
		if !s.mu.TryLock() {
			continue // a request is being written: its process runs
		}
		if s.pr == nil {
			var err error
			if s.pr, err = p.start(); err != nil && first == nil {
				first = err
			}
		}
		s.mu.Unlock()
	}
	return first
}

// MallocTunables are glibc malloc settings for worker processes.
//
// One arena: a worker runs one document at a time, but Go runs its cgo
// calls on whichever OS thread holds the goroutine, and glibc gave each new
// thread an arena of its own: MuPDF's memory was spread over ~6 arenas,
// each touched fresh (a minor fault per 4 KiB page, ~10-17 us on a VM).
// One worker over the 149 bench-load PDFs: 13-14k faults -> 10-11k.
//
// Freed memory kept up to 8 MiB (mallocKeep): glibc gave back the top of the
// heap whenever 128 KiB of it were free (trim_threshold) and served every
// block of 128 KiB or more from an mmap of its own, unmapped when freed
// (mmap_threshold, which a set trim_threshold also stops glibc from
// raising): each page's structured text (MuPDF's pool), each image stream
// read and each decoded JPX was touched fresh, page after page. Keeping
// 8 MiB costs a worker at most that much resident memory between
// documents. One worker over the 149 PDFs: 11.6-12.2k faults -> 9.8-10.3k,
// peak RSS unchanged (123-134 MB). Other C libraries ignore it.
const MallocTunables = "glibc.malloc.arena_max=1:glibc.malloc.trim_threshold=" + mallocKeep + ":glibc.malloc.mmap_threshold=" + mallocKeep

// mallocKeep is the freed memory a worker's glibc keeps (8 MiB), in bytes
// as the tunables want it.
const mallocKeep = "8388608"

// withMallocTunables adds MallocTunables to GLIBC_TUNABLES in env, before
// the tunables already set there (glibc takes the last of a name, so a
// user's own arena_max wins).
func withMallocTunables(env []string) []string {
	const key = "GLIBC_TUNABLES="
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key); ok {
			if v == "" {
				return append(env, key+MallocTunables)
			}
			return append(env, key+MallocTunables+":"+v)
		}
	}
	return append(env, key+MallocTunables)
}

func hasEnv(env []string, key string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, key+"=") {
			return true
		}
	}
	return false
}

// kill stops a process (and its process group) and waits for its exit;
// once only, and not after it exited (its PID may be another's then).
func (p *Pool) kill(pr *proc) {
	if pr == nil {
		return
	}
	pr.kill.Do(func() {
		select {
		case <-pr.done:
		default:
			p.notePeak(pr)
			syscall.Kill(-pr.cmd.Process.Pid, syscall.SIGKILL)
			pr.cmd.Process.Kill()
			<-pr.done
		}
		p.mu.Lock()
		delete(p.all, pr)
		p.mu.Unlock()
	})
}

// notePeak keeps the highest resident set size of the workers: the
// worker's own high-water mark (VmHWM), read while it lives, before it is
// told to stop or killed. Not wait4's ru_maxrss when it has exited: Go
// starts a process by vfork and exec, and at the exec the kernel carries
// the high-water mark of the memory it leaves (the parent's, shared under
// vfork) into the new process's, so every worker "peaked" at the loader's
// resident size when it was started (91 MB at 50k documents while its own
// peak was 55-59 MB; a worker started again late in a load would have
// shown the loader's ~300 MB). A worker that died on its own is not
// counted (its memory is gone by then).
func (p *Pool) notePeak(pr *proc) {
	select {
	case <-pr.done:
		return // exited and reaped: its PID may be another process's now
	default:
	}
	rss := highWaterBytes(pr.cmd.Process.Pid)
	p.mu.Lock()
	p.peak = max(p.peak, rss)
	p.mu.Unlock()
}

// PeakRSS is the highest resident set size any worker reached, in bytes,
// from the kernel's high-water mark of each worker read before it was
// stopped (a worker stopped over the memory limit included); call it
// after Close.
func (p *Pool) PeakRSS() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.peak
}

// residentBytes reads a process's RSS from /proc (0 when unknown).
func residentBytes(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// highWaterBytes reads a live process's own resident high-water mark
// (VmHWM of /proc/PID/status), 0 when unknown.
func highWaterBytes(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// Close stops every worker.
func (p *Pool) Close() {
	p.Release() // all at once: they exit in parallel
	for _, pr := range p.procs() {
		select {
		case <-pr.done:
		case <-time.After(2 * time.Second):
			p.kill(pr)
		}
	}
}

// Release tells every worker to exit (closes its input) without waiting,
// so the workers wind down while the caller finishes its own work; Close
// then only waits. Call it once no more work will be sent.
func (p *Pool) Release() {
	for _, pr := range p.procs() {
		p.notePeak(pr)
		pr.stdin.Close()
	}
}

func (p *Pool) procs() []*proc {
	p.mu.Lock()
	defer p.mu.Unlock()
	procs := make([]*proc, 0, len(p.all))
	for pr := range p.all {
		procs = append(procs, pr)
	}
	return procs
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu      sync.Mutex
	buf     []byte
	max     int
	written int64 // bytes written in all
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	t.written += int64(len(b))
	return len(b), nil
}

func (t *tail) String() string { t.mu.Lock(); defer t.mu.Unlock(); return string(t.buf) }

// mark is the count of bytes written so far, for dropBefore.
func (t *tail) mark() int64 { t.mu.Lock(); defer t.mu.Unlock(); return t.written }

// dropBefore forgets what was written before mark.
func (t *tail) dropBefore(mark int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if keep := t.written - mark; keep < int64(len(t.buf)) {
		t.buf = append(t.buf[:0], t.buf[int64(len(t.buf))-keep:]...)
	}
}
