// Package worker runs extraction in isolated subprocesses. The loader side
// (Pool) starts `docket worker` processes, sends each one document at a
// time over a pipe (frames of codec.go; the next request waits in the
// pipe while the worker extracts) and gets back a document.Result or a
// document.Error; a worker that crashes, hangs past the timeout or grows
// past the memory limit costs only the document it held, and is replaced
// (a request queued behind that document is sent to the new worker).
// The worker side (Serve) reads requests and calls an extraction function.
package worker

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"syscall"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
)

// Request asks a worker to extract one file.
type Request struct {
	ID       int64
	Path     string // the bytes to extract (a private copy the loader made)
	Name     string // the document's path as shown to people (source-relative)
	Type     string // detected type key
	MIME     string
	Encoding string
	Opts     document.Options
}

// Response is a worker's answer to one Request.
type Response struct {
	ID       int64
	Result   *document.Result
	Err      *document.Error
	Duration time.Duration
}

// ExtractFunc extracts one document; errors that are not *document.Error
// are reported as kind "internal".
type ExtractFunc func(ctx context.Context, req Request) (*document.Result, error)

// Hooks are fault-injection points, set by tests (a test binary that
// doubles as the worker installs them in its TestMain); production code
// leaves them nil and never reads them from the environment.
var Hooks struct {
	// BeforeExtract runs in the worker process before each request (a
	// test makes the worker die or hang on a named document).
	BeforeExtract func(req Request)
}

// EnvGCPercent, set by the Pool when it starts a worker with GOGC=off (to
// speed up package initialisation), is the GC percentage Serve restores
// before the first request.
const EnvGCPercent = "DOCKET_WORKER_GC_PERCENT"

// hugeHeapBytes is the Go heap a worker maps ahead for transparent huge
// pages (adviseHugeHeap): a PDF worker's heap peaked at 120-150 MB over
// the corpus (GC at 400 %), so this covers most of it. Address space,
// not memory: untouched pages are not resident.
const hugeHeapBytes = 128 << 20

// Serve is the worker's main loop: it greets with versions (the
// extractor versions it was built with, version.All(); the Pool refuses a
// worker whose versions are not its own), then reads Requests from in and
// writes Responses to out until in is closed.
func Serve(ctx context.Context, in io.Reader, out io.Writer, versions string, extract ExtractFunc) error {
	if v, err := strconv.Atoi(os.Getenv(EnvGCPercent)); err == nil {
		debug.SetGCPercent(v)
	}
	var enc encoder
	enc.hello(versions)
	if err := writeFrame(out, &enc); err != nil {
		return fmt.Errorf("worker: write hello: %w", err)
	}
	adviseHugeHeap()
	in = bufio.NewReader(in)
	for {
		d, err := readFrame(in)
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return fmt.Errorf("worker: read request: %w", err)
		}
		req, err := d.request()
		if err != nil {
			return fmt.Errorf("worker: read request: %w", err)
		}
		if Hooks.BeforeExtract != nil {
			Hooks.BeforeExtract(req)
		}
		start := time.Now()
		res, err := safeExtract(ctx, req, extract)
		resp := Response{ID: req.ID, Result: res, Duration: time.Since(start)}
		if err != nil {
			resp.Result = nil
			var de *document.Error
			if errors.As(err, &de) {
				resp.Err = de
			} else {
				resp.Err = &document.Error{Kind: document.KindInternal, Msg: err.Error()}
			}
		}
		enc.response(&resp)
		if n := len(enc.b) - 4; n > maxFrame {
			// The Pool would reject the frame as a broken stream (a crash,
			// retried), and past 4 GiB its length would wrap.
			enc = encoder{} // the oversized buffer goes
			enc.response(&Response{ID: req.ID, Duration: resp.Duration, Err: document.Errorf(document.KindTooLarge,
				"the extraction's result is %d MiB, more than the %d MiB one answer of an extraction process may hold", n>>20, maxFrame>>20)})
		}
		if err := writeFrame(out, &enc); err != nil {
			return fmt.Errorf("worker: write response: %w", err)
		}
		settle()
	}
}

// settle collects and gives freed memory back to the system when the
// document just answered left the Go heap's goal over WorkerSoftMemory
// (a collection while a big document was live sets the next goal at 5x
// that heap). After the small documents of a 50k load it never does; the
// goal is read from runtime/metrics (~1 us). A worker whose steady live
// heap keeps the goal over the budget settles again only once the goal
// has grown by a quarter past where the last settle left it, not after
// every document.
func settle() {
	goal := heapGoal()
	if goal > WorkerSoftMemory && goal > settledGoal+settledGoal/4 {
		debug.FreeOSMemory()
		settledGoal = heapGoal()
	}
}

// settledGoal is the heap goal the last settle left.
var settledGoal uint64

func heapGoal() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// safeExtract turns a Go panic in an extractor into an error; C crashes
// kill the process and are handled by the Pool.
func safeExtract(ctx context.Context, req Request, extract ExtractFunc) (res *document.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &document.Error{Kind: document.KindCrash, Msg: fmt.Sprintf("extractor panicked: %v", r)}
		}
	}()
	return extract(ctx, req)
}

// ProtocolStdio prepares the worker process's stdio: the protocol keeps
// the original stdout, and fd 1 is pointed at stderr so that C libraries
// printing to stdout cannot corrupt the protocol's frames.
func ProtocolStdio() (in io.Reader, out io.Writer, err error) {
	fd, err := syscall.Dup(1)
	if err != nil {
		return nil, nil, err
	}
	if err := syscall.Dup2(2, 1); err != nil {
		return nil, nil, err
	}
	return os.Stdin, os.NewFile(uintptr(fd), "protocol"), nil
}
