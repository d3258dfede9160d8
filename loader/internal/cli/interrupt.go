package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// interruptGrace is how long a command gets to stop by itself after
// SIGINT/SIGTERM (DuckDB queries are interrupted through the context;
// rendering and Go UDFs are not) before docket exits anyway. DuckDB's
// write-ahead log makes that safe: tables are swapped in at the end of a
// model, so the warehouse holds the state before or after each model.
const interruptGrace = 1500 * time.Millisecond

// interruption is which signal stopped the command, if any.
type interruption struct {
	mu  sync.Mutex
	sig os.Signal
}

type interruptKey struct{}

// notifyInterrupt returns a context cancelled by SIGINT or SIGTERM. For
// commands that cannot lose anything by stopping at once (build, run,
// test, seed, snapshot, compile, ls, show, search, sql), a command that has not
// returned interruptGrace after the signal is ended with "interrupted" and
// exit 128+signal; a second signal ends it at once. load and worker stop
// by themselves (they finish or roll back the document in hand).
func notifyInterrupt(cmd string, stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	in := &interruption{}
	ctx = context.WithValue(ctx, interruptKey{}, in)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	force := map[string]bool{"build": true, "run": true, "test": true, "seed": true, "snapshot": true,
		"compile": true, "ls": true, "show": true, "search": true, "sql": true}[cmd]
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			in.mu.Lock()
			in.sig = sig
			in.mu.Unlock()
			cancel()
			if !force {
				return
			}
			select {
			case <-done:
			case <-time.After(interruptGrace):
				fmt.Fprintf(stderr, "docket %s: interrupted (%s); stopped\n", cmd, sigName(sig))
				os.Exit(exitCodeFor(sig))
			case sig2 := <-ch:
				fmt.Fprintf(stderr, "docket %s: interrupted (%s twice); stopped\n", cmd, sigName(sig2))
				os.Exit(exitCodeFor(sig2))
			}
		case <-done:
		}
	}()
	return ctx, func() {
		close(done)
		signal.Stop(ch)
		cancel()
	}
}

// interrupted reports whether ctx was cancelled by a signal, and the exit
// code and message for it.
func interrupted(ctx context.Context) (os.Signal, bool) {
	in, ok := ctx.Value(interruptKey{}).(*interruption)
	if !ok {
		return nil, false
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.sig, in.sig != nil
}

// reportInterrupted prints "interrupted" for a command stopped by a
// signal and returns its exit code; ok is false when no signal came.
func reportInterrupted(ctx context.Context, cmd string, stderr io.Writer) (int, bool) {
	sig, ok := interrupted(ctx)
	if !ok {
		return 0, false
	}
	fmt.Fprintf(stderr, "docket %s: interrupted (%s); models finished before it are kept, the one in progress was rolled back\n", cmd, sigName(sig))
	return exitCodeFor(sig), true
}

func sigName(s os.Signal) string {
	if s == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

func exitCodeFor(s os.Signal) int {
	if s == syscall.SIGTERM {
		return 128 + int(syscall.SIGTERM)
	}
	return 128 + int(syscall.SIGINT)
}
