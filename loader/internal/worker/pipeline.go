package worker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
)

// verdict is what an Extract call gets: an answer (a document's error
// included) or the pool's own error.
type verdict struct {
	resp *Response
	err  error
}

func failed(id int64, kind, msg string) verdict {
	return verdict{resp: &Response{ID: id, Err: &document.Error{Kind: kind, Msg: msg}}}
}

// call is one Extract's request on a process.
type call struct {
	req  *Request
	pr   *proc
	head chan struct{} // closed when the process begins it: the request ahead was answered
	done chan struct{} // closed once v or retry is set
	v    verdict
	// retry: the process ended before it began this request (the one
	// ahead crashed, timed out or was stopped): it is sent again.
	retry bool
}

// outOfStep is an answer to another request than the one the process
// was extracting.
type outOfStep string

func (e outOfStep) Error() string { return string(e) }

// Extract runs req on a worker. The returned error is always a
// *document.Error for document-level failures (crash, timeout, too_large,
// or the extractor's own); a plain error means the pool itself failed.
//
// The request may wait in a busy process's pipe behind the one it
// extracts (see Pool): its time-out and memory watch start when that one
// is answered, and should that one end the process, req is sent again to
// a fresh process.
func (p *Pool) Extract(ctx context.Context, req Request) (*Response, error) {
	for {
		s, err := p.acquire(ctx)
		if err != nil {
			return nil, err
		}
		c := &call{req: &req, head: make(chan struct{}), done: make(chan struct{})}
		if err := p.send(s, c); err != nil {
			p.release(s)
			return nil, err
		}
		v, retry := p.wait(ctx, c)
		p.release(s)
		if !retry {
			return v.resp, v.err
		}
	}
}

// acquire takes a token of the least busy slot: an idle process first,
// and the pipe of a busy one only when none is idle.
func (p *Pool) acquire(ctx context.Context) (*slot, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p.mu.Lock()
		var best *slot
		for _, s := range p.slots {
			if s.calls < p.depth && (best == nil || s.calls < best.calls) {
				best = s
			}
		}
		if best != nil {
			best.calls++
			p.mu.Unlock()
			return best, nil
		}
		freed := p.freed
		p.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// release gives a token back.
func (p *Pool) release(s *slot) {
	p.mu.Lock()
	s.calls--
	close(p.freed)
	p.freed = make(chan struct{})
	p.mu.Unlock()
}

// send queues c on the slot's process (a fresh one when the slot has
// none or its process ended) and writes its request.
func (p *Pool) send(s *slot, c *call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if s.pr == nil {
			pr, err := p.start()
			if err != nil {
				return err
			}
			s.pr = pr
		}
		pr := s.pr
		pr.mu.Lock()
		if pr.ended { // only a process whose reader runs ends: not the one just started
			pr.mu.Unlock()
			s.pr = nil
			continue
		}
		if len(pr.queue) == 0 {
			close(c.head)
			pr.stderr.dropBefore(pr.stderr.mark()) // its last output is this document's
		}
		pr.queue = append(pr.queue, c)
		startReader := !pr.reading
		pr.reading = true
		pr.mu.Unlock()
		c.pr = pr
		pr.enc.request(c.req)
		// A request is a few hundred bytes and a process holds at most
		// two: the write never waits on the pipe. An error means the
		// process died; its reader tells (c is queued).
		writeFrame(pr.stdin, &pr.enc)
		if startReader {
			// The hello is read once the first request is written: a
			// worker of a build from before the hello speaks only when
			// asked, and its answer is then refused at once instead of
			// waited for. No answer of an unchecked process is used.
			go p.read(pr)
		}
		return nil
	}
}

// wait waits for c's verdict, watching its process's time and memory
// while c is the request it extracts. retry: send c again.
func (p *Pool) wait(ctx context.Context, c *call) (v verdict, retry bool) {
	pr := c.pr
	head := c.head
	var timeout, tick <-chan time.Time
	for {
		select {
		case <-c.done:
			return c.v, c.retry
		case <-head:
			head = nil
			t := time.NewTimer(p.opts.Timeout)
			defer t.Stop()
			tk := time.NewTicker(100 * time.Millisecond)
			defer tk.Stop()
			timeout, tick = t.C, tk.C
		case <-timeout:
			timeout, tick = nil, nil
			if !pr.greeted.Load() && !p.greeted.Load() {
				p.stop(pr, c, verdict{err: &WrongWorker{Command: p.opts.Command[0], Why: fmt.Sprintf("did not greet within %s (loader.timeout)", p.opts.Timeout)}})
			} else {
				p.stop(pr, c, failed(c.req.ID, document.KindTimeout, fmt.Sprintf("extraction took longer than %s and was stopped", p.opts.Timeout)))
			}
		case <-tick:
			if p.opts.MaxMemory > 0 {
				if rss := residentBytes(pr.cmd.Process.Pid); rss > p.opts.MaxMemory {
					timeout, tick = nil, nil
					p.stop(pr, c, failed(c.req.ID, document.KindTooLarge, fmt.Sprintf("extraction used %d MiB of memory, over the %d MiB limit (loader.max_worker_memory)", rss>>20, p.opts.MaxMemory>>20)))
				}
			}
		case <-ctx.Done():
			p.stop(pr, c, verdict{err: ctx.Err()})
			return verdict{err: ctx.Err()}, false
		}
	}
}

// stop kills c's process on c's account: v is c's verdict if c is still
// the request the process extracts when its reader ends (see end);
// otherwise c was answered meanwhile and the process's current request
// is sent again.
func (p *Pool) stop(pr *proc, c *call, v verdict) {
	pr.mu.Lock()
	if pr.stopped == nil {
		pr.stopped, pr.stopVerdict = c, v
	}
	pr.mu.Unlock()
	p.kill(pr)
	// The reader ends at the pipe's end, which the killed process group
	// closes; should anything else hold the pipe, it is closed here.
	time.AfterFunc(5*time.Second, func() { pr.outR.Close() })
}

// read is a process's reader: it checks the hello, then hands each
// answer to the oldest unanswered call, until the stream ends.
func (p *Pool) read(pr *proc) {
	err := p.greet(pr)
	for err == nil {
		if _, err = pr.out.Peek(4); err != nil {
			break
		}
		// The answer is coming: what the process writes to stderr from
		// here on is the next document's.
		mark := pr.stderr.mark()
		var d *decoder
		if d, err = readFrame(pr.out); err != nil {
			break
		}
		var resp Response
		if resp, err = d.response(); err != nil {
			break
		}
		pr.mu.Lock()
		if len(pr.queue) == 0 || pr.queue[0].req.ID != resp.ID {
			want := "none"
			if len(pr.queue) > 0 {
				want = fmt.Sprint(pr.queue[0].req.ID)
			}
			pr.mu.Unlock()
			err = outOfStep(fmt.Sprintf("the extraction process answered request %d instead of %s (protocol out of step)", resp.ID, want))
			break
		}
		c := pr.queue[0]
		pr.queue = pr.queue[1:]
		pr.stderr.dropBefore(mark)
		if len(pr.queue) > 0 {
			close(pr.queue[0].head)
		}
		pr.mu.Unlock()
		c.v = verdict{resp: &resp}
		close(c.done)
	}
	p.end(pr, err)
}

// end closes a process's reader after err and gives its unanswered
// calls their verdicts. Blame follows the stream's order: the oldest
// unanswered call is the one the process was extracting; the calls
// behind it were never begun and are sent again. A process the pool
// stopped gives its call the stop's verdict (a time-out, the memory
// limit), and sends the current one again when that call was answered
// first; a worker of another build fails every call alike.
func (p *Pool) end(pr *proc, err error) {
	var bf *BrokenFrame
	var ww *WrongWorker
	var oos outOfStep
	if !errors.As(err, &bf) && !errors.As(err, &ww) && !errors.As(err, &oos) {
		// The pipe ended: the process exited or is exiting; its status
		// names the crash.
		select {
		case <-pr.done:
		case <-time.After(2 * time.Second):
		}
	}
	p.kill(pr) // it may live on after an answer that could not be read
	pr.outR.Close()
	pr.mu.Lock()
	pr.ended = true
	queue, stopped, sv := pr.queue, pr.stopped, pr.stopVerdict
	pr.queue = nil
	pr.mu.Unlock()
	if stopped != nil {
		var stop *WrongWorker
		if errors.As(sv.err, &stop) {
			ww = stop // no hello within the time-out: not this build's worker
		}
	}
	for i, c := range queue {
		switch {
		case i == 0 && stopped == c:
			c.v = sv
		case ww != nil:
			c.v = verdict{err: ww} // every document would fare the same
		case i > 0 || stopped != nil:
			c.retry = true
		case bf != nil:
			// Read whole but not understood: the process may have lived on
			// (killed above).
			c.v = failed(c.req.ID, document.KindCrash, "the extraction process's answer could not be read: "+bf.Msg)
		case oos != "":
			c.v = failed(c.req.ID, document.KindCrash, string(oos))
		default:
			c.v = failed(c.req.ID, document.KindCrash, crashMessage(pr))
		}
		close(c.done)
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
