package worker

import (
	"bufio"
	"context"
	"errors"
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

	"github.com/docket-dev/docket/loader/internal/document"
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
type Pool struct {
	opts  PoolOptions
	slots chan *proc
	mu    sync.Mutex
	all   map[*proc]bool
	peak  int64 // highest resident set of a stopped worker (its own VmHWM, see notePeak), bytes
	// greeted: some process of this pool greeted with its Versions, so
	// the command is this build's worker and a later process that ends or
	// hangs before greeting failed on its own (a crash or a time-out of
	// the document in hand), not a WrongWorker.
	greeted atomic.Bool
}

type proc struct {
	cmd    *exec.Cmd
	enc    encoder       // the requests' frames (one request at a time)
	out    *bufio.Reader // the responses' frames
	stdin  io.WriteCloser
	stderr *tail
	done   chan struct{} // closed when the process exited
	// greeted: the process's hello was read and was this build's
	// versions (see greet).
	greeted atomic.Bool
}

// NewPool starts Size workers lazily (on first use, or at Warm).
func NewPool(opts PoolOptions) *Pool {
	if opts.Size < 1 {
		opts.Size = 1
	}
	p := &Pool{opts: opts, slots: make(chan *proc, opts.Size), all: map[*proc]bool{}}
	for i := 0; i < opts.Size; i++ {
		p.slots <- nil
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
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	t := &tail{max: 4096}
	cmd.Stderr = t
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("worker: start %v: %w", p.opts.Command, err)
	}
	pr := &proc{cmd: cmd, out: bufio.NewReaderSize(stdout, 1<<16), stdin: stdin, stderr: t, done: make(chan struct{})}
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
	var idle []*proc
take:
	for len(idle) < p.opts.Size {
		select {
		case pr := <-p.slots:
			idle = append(idle, pr)
		default:
			break take
		}
	}
	var first error
	for i, pr := range idle {
		if pr == nil {
			np, err := p.start()
			if err != nil && first == nil {
				first = err
			}
			idle[i] = np
		}
	}
	for _, pr := range idle {
		p.slots <- pr
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

func (p *Pool) kill(pr *proc) {
	if pr == nil {
		return
	}
	p.notePeak(pr)
	syscall.Kill(-pr.cmd.Process.Pid, syscall.SIGKILL)
	pr.cmd.Process.Kill()
	<-pr.done
	p.mu.Lock()
	delete(p.all, pr)
	p.mu.Unlock()
}

// Extract runs req on a free worker. The returned error is always a
// *document.Error for document-level failures (crash, timeout, too_large,
// or the extractor's own); a plain error means the pool itself failed.
func (p *Pool) Extract(ctx context.Context, req Request) (*Response, error) {
	var pr *proc
	select {
	case pr = <-p.slots:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	healthy := false
	defer func() {
		if !healthy {
			p.kill(pr)
			pr = nil
		}
		p.slots <- pr
	}()
	if pr == nil {
		var err error
		if pr, err = p.start(); err != nil {
			return nil, err
		}
	}
	pr.stderr.Reset()
	type result struct {
		resp Response
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		var r result
		pr.enc.request(&req)
		r.err = writeFrame(pr.stdin, &pr.enc)
		if !pr.greeted.Load() {
			// The hello is read once the first request is written: a
			// worker of a build from before the hello speaks only when
			// asked, and its answer is then refused at once instead of
			// waited for. No answer of an unchecked process is used.
			if err := p.greet(pr); err != nil {
				r.err = err
			}
		}
		if r.err == nil {
			var d *decoder
			if d, r.err = readFrame(pr.out); r.err == nil {
				r.resp, r.err = d.response()
			}
		}
		ch <- r
	}()
	timer := time.NewTimer(p.opts.Timeout)
	defer timer.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	fail := func(kind, msg string) (*Response, error) {
		return &Response{ID: req.ID, Err: &document.Error{Kind: kind, Msg: msg}}, nil
	}
	for {
		select {
		case r := <-ch:
			var ww *WrongWorker
			if errors.As(r.err, &ww) {
				return nil, ww
			}
			var bf *BrokenFrame
			if errors.As(r.err, &bf) {
				// Read whole but not understood: the process may live on
				// (it is killed as unhealthy).
				return fail(document.KindCrash, "the extraction process's answer could not be read: "+bf.Msg)
			}
			if r.err != nil {
				<-pr.done // the pipe broke: the process died; wait for its status
				return fail(document.KindCrash, crashMessage(pr))
			}
			if r.resp.ID != req.ID {
				return fail(document.KindCrash, fmt.Sprintf("the extraction process answered request %d instead of %d (protocol out of step)", r.resp.ID, req.ID))
			}
			healthy = true
			return &r.resp, nil
		case <-timer.C:
			if !pr.greeted.Load() && !p.greeted.Load() {
				return nil, &WrongWorker{Command: p.opts.Command[0], Why: fmt.Sprintf("did not greet within %s (loader.timeout)", p.opts.Timeout)}
			}
			return fail(document.KindTimeout, fmt.Sprintf("extraction took longer than %s and was stopped", p.opts.Timeout))
		case <-tick.C:
			if p.opts.MaxMemory > 0 {
				if rss := residentBytes(pr.cmd.Process.Pid); rss > p.opts.MaxMemory {
					return fail(document.KindTooLarge, fmt.Sprintf("extraction used %d MiB of memory, over the %d MiB limit (loader.max_worker_memory)", rss>>20, p.opts.MaxMemory>>20))
				}
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// greet reads a new process's hello (its first frame) and wants the
// pool's Versions: otherwise a *WrongWorker error.
func (p *Pool) greet(pr *proc) error {
	d, err := readFrame(pr.out)
	var got string
	if err == nil {
		got, err = d.hello()
	}
	if err == nil && got == p.opts.Versions {
		pr.greeted.Store(true)
		p.greeted.Store(true)
		return nil
	}
	ww := &WrongWorker{Command: p.opts.Command[0]}
	var bf *BrokenFrame
	switch {
	case errors.As(err, &bf):
		ww.Why = "did not greet (" + bf.Msg + ")"
	case err != nil && p.greeted.Load():
		return err // this build's worker died at its start: the document's crash
	case err != nil:
		<-pr.done // its output ended: it exited
		ww.Why = "ended before greeting (" + crashMessage(pr) + ")"
	default:
		ww.Why = fmt.Sprintf("greeted with extractor versions %q, want %q", got, p.opts.Versions)
	}
	return ww
}

func crashMessage(pr *proc) string {
	msg := "the extraction process died"
	if st := pr.cmd.ProcessState; st != nil {
		if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			msg += " with signal " + ws.Signal().String()
		} else {
			msg += fmt.Sprintf(" with exit code %d", st.ExitCode())
		}
	}
	if s := strings.TrimSpace(pr.stderr.String()); s != "" {
		msg += "; last output: " + lastLines(s, 3)
	}
	return msg
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
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
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(b), nil
}

func (t *tail) String() string { t.mu.Lock(); defer t.mu.Unlock(); return string(t.buf) }
func (t *tail) Reset()         { t.mu.Lock(); t.buf = t.buf[:0]; t.mu.Unlock() }
