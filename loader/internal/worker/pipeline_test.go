package worker

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
	"golang.org/x/sys/unix"
)

// pipelineRules are the test worker's documents for the pipelining tests,
// by the request path's base name:
//   - "queued": notes it began (PATH.in holds the worker's PID), waits up
//     to 20 s for the next request to be in its pipe and notes that too
//     (PATH.queued), then goes on with the other rules;
//   - "sleepN": sleeps N ms;
//   - "brokenframe": writes a frame of another wire version and stays.
func pipelineRules(r Request, out io.Writer) error {
	base := filepath.Base(r.Path)
	if strings.Contains(base, "queued") {
		tmp := r.Path + ".tmp"
		os.WriteFile(tmp, []byte(strconv.Itoa(os.Getpid())), 0o644)
		os.Rename(tmp, r.Path+".in")
		for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
			if n, err := unix.IoctlGetInt(0, unix.TIOCINQ); err == nil && n > 0 {
				os.WriteFile(r.Path+".queued", nil, 0o644)
				break
			}
		}
	}
	if _, after, ok := strings.Cut(base, "sleep"); ok {
		n := 0
		for n < len(after) && after[n] >= '0' && after[n] <= '9' {
			n++
		}
		ms, _ := strconv.Atoi(after[:n])
		time.Sleep(time.Duration(ms) * time.Millisecond)
	}
	if strings.Contains(base, "brokenframe") {
		out.Write([]byte{2, 0, 0, 0, 99, 0})
		time.Sleep(time.Hour)
	}
	return nil
}

type extracted struct {
	resp *Response
	err  error
}

func extractAsync(p *Pool, req Request) <-chan extracted {
	ch := make(chan extracted, 1)
	go func() {
		resp, err := p.Extract(context.Background(), req)
		ch <- extracted{resp, err}
	}()
	return ch
}

// begun waits until the test worker began a "queued" document and
// returns the worker's PID.
func begun(t *testing.T, path string) int {
	t.Helper()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if b, err := os.ReadFile(path + ".in"); err == nil {
			pid, _ := strconv.Atoi(string(b))
			return pid
		}
	}
	t.Fatalf("the worker never began %s", path)
	return 0
}

// aheadAndQueued extracts a (a "queued" document) and, once a worker
// extracts it, b, on a pool of one process: b's request waits in the
// pipe behind a. It returns both outcomes, a's process's PID, and
// whether a's worker saw b's request in its pipe.
func aheadAndQueued(t *testing.T, p *Pool, a, b string) (ea, eb extracted, pidA int, sawB bool) {
	t.Helper()
	ra := extractAsync(p, Request{ID: 1, Path: a})
	pidA = begun(t, a)
	rb := extractAsync(p, Request{ID: 2, Path: b})
	ea, eb = <-ra, <-rb
	_, err := os.Stat(a + ".queued")
	return ea, eb, pidA, err == nil
}

func wantText(t *testing.T, what string, e extracted) string {
	t.Helper()
	if e.err != nil || e.resp == nil || e.resp.Err != nil || e.resp.Result == nil {
		t.Fatalf("%s: want an answer, got %+v, %v", what, e.resp, e.err)
	}
	return e.resp.Result.Pages[0].Text
}

func wantKind(t *testing.T, what string, e extracted, kind string) {
	t.Helper()
	if e.err != nil || e.resp == nil || e.resp.Err == nil || e.resp.Err.Kind != kind {
		t.Fatalf("%s: want a %s, got %+v, %v", what, kind, e.resp, e.err)
	}
}

// TestPipelineWritesTheNextRequestAhead: a process's next request is
// written while it still extracts the one before (main's pool wrote it
// only once the answer was read), and is extracted by the same process.
func TestPipelineWritesTheNextRequestAhead(t *testing.T) {
	dir := t.TempDir()
	p := newPool(t, 1)
	a := filepath.Join(dir, "queued-a.txt")
	ea, eb, pidA, sawB := aheadAndQueued(t, p, a, filepath.Join(dir, "pid-b.txt"))
	if got := wantText(t, "a", ea); got != "text of "+a {
		t.Errorf("a: %q", got)
	}
	if !sawB {
		t.Errorf("the second request was not in the pipe while the first was extracted")
	}
	if got := wantText(t, "b", eb); got != strconv.Itoa(pidA) {
		t.Errorf("b was extracted by process %s, want %d (the one it was queued on)", got, pidA)
	}
}

// TestPipelineQueuedIsRetriedWhenTheOneAheadEndsItsProcess: when the
// document a process extracts crashes it, times out, overruns the
// memory limit or answers with a broken frame, that document gets the
// blame, and the request queued behind it, which the process never
// began, is extracted by a fresh process: not quarantined. The dead
// process's two tokens start one process, not two.
func TestPipelineQueuedIsRetriedWhenTheOneAheadEndsItsProcess(t *testing.T) {
	for _, c := range []struct {
		name, kind, msg string
		timeout         time.Duration
	}{
		{"queued-crashme.pdf", document.KindCrash, "killed", time.Minute},
		{"queued-hangme.pdf", document.KindTimeout, "longer than 3s", 3 * time.Second},
		{"queued-big.bin", document.KindTooLarge, "max_worker_memory", time.Minute},
		{"queued-brokenframe.pdf", document.KindCrash, "could not be read", time.Minute},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := newPoolTimeout(t, 1, c.timeout)
			a := filepath.Join(dir, c.name)
			ea, eb, pidA, sawB := aheadAndQueued(t, p, a, filepath.Join(dir, "pid-b.txt"))
			if !sawB {
				t.Fatalf("the second request was not in the pipe while the first was extracted")
			}
			wantKind(t, "a", ea, c.kind)
			if !strings.Contains(ea.resp.Err.Msg, c.msg) {
				t.Errorf("a: message %q, want it to say %q", ea.resp.Err.Msg, c.msg)
			}
			if got := wantText(t, "b (queued behind a)", eb); got == strconv.Itoa(pidA) || got == "" {
				t.Errorf("b was answered by process %s, a's was %d: want a fresh one", got, pidA)
			}
			p.mu.Lock()
			n := len(p.all)
			p.mu.Unlock()
			if n != 1 {
				t.Errorf("%d processes after the retry, want 1", n)
			}
		})
	}
}

// TestPipelineTimeoutStartsWhenTheOneAheadIsAnswered: a queued request's
// time-out counts from when the process begins it, not from when it was
// written: b spends 3.5 s in Extract against a 3 s time-out, 1.5 s of it
// its own.
func TestPipelineTimeoutStartsWhenTheOneAheadIsAnswered(t *testing.T) {
	dir := t.TempDir()
	p := newPoolTimeout(t, 1, 3*time.Second)
	a := filepath.Join(dir, "queued-sleep2000.txt")
	start := time.Now()
	ea, eb, _, sawB := aheadAndQueued(t, p, a, filepath.Join(dir, "sleep1500.txt"))
	if !sawB {
		t.Fatalf("the second request was not in the pipe while the first was extracted")
	}
	wantText(t, "a", ea)
	wantText(t, "b", eb)
	if d := time.Since(start); d < 3*time.Second {
		t.Errorf("both took %s: the test proves nothing under 3 s", d)
	}
}

// TestPipelineHelloBeforeAnyAnswer: a process of another build with two
// requests in its pipe: no answer of it is used, both calls get the
// pool's WrongWorker error (neither a crash nor a retry forever), also
// when it never greets at all.
func TestPipelineHelloBeforeAnyAnswer(t *testing.T) {
	wrong := filepath.Join(t.TempDir(), "greet-wrong")
	os.WriteFile(wrong, nil, 0o644)
	exe, _ := os.Executable()
	for _, c := range []struct {
		env, want string
	}{
		{"DOCKET_TEST_AS_WORKER=1 DOCKET_TEST_GREET_WRONG=" + wrong, `greeted with extractor versions "pdf/1+other/1"`},
		{"DOCKET_TEST_AS_WORKER=silent", "did not greet within 2s"},
	} {
		p := NewPool(PoolOptions{Command: []string{exe}, Env: strings.Fields(c.env), Size: 1, Timeout: 2 * time.Second, Versions: testVersions})
		ra := extractAsync(p, Request{ID: 1, Path: "a.txt"})
		rb := extractAsync(p, Request{ID: 2, Path: "b.txt"})
		for _, r := range []<-chan extracted{ra, rb} {
			select {
			case e := <-r:
				var ww *WrongWorker
				if !errors.As(e.err, &ww) || e.resp != nil || !strings.Contains(e.err.Error(), c.want) {
					t.Errorf("%s: %+v, %v; want a WrongWorker saying %q and no answer", c.env, e.resp, e.err, c.want)
				}
			case <-time.After(time.Minute):
				t.Fatalf("%s: no verdict within a minute", c.env)
			}
		}
		p.Close()
	}
}

// TestPipelinePrefersAnIdleProcess: a request goes to an idle process
// before it waits in a busy one's pipe.
func TestPipelinePrefersAnIdleProcess(t *testing.T) {
	p := newPool(t, 2)
	if err := p.Warm(); err != nil {
		t.Fatal(err)
	}
	ra := extractAsync(p, Request{ID: 1, Path: "sleep1000-pid.txt"})
	rb := extractAsync(p, Request{ID: 2, Path: "sleep1000-pid.txt"})
	a, b := wantText(t, "a", <-ra), wantText(t, "b", <-rb)
	if a == b {
		t.Errorf("both requests went to process %s while the other was idle", a)
	}
}
