// Package workercmd is the extraction worker's entry point. The
// docket-worker binary runs Main, and so do test binaries that double as
// docket. Only this package links the extractors (MuPDF, excelize,
// readability, ...): the docket CLI does not, so no docket command pays
// their package initialisation (excelize alone compiled regular
// expressions for 12–40 ms of every `docket search`).
package workercmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"github.com/docket-dev/docket/loader/internal/extract"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/internal/extract/version"
	"github.com/docket-dev/docket/loader/internal/worker"
)

// VersionsFlag asks a worker for its extractor versions.
const VersionsFlag = "--versions"

// Exit codes, as the CLI's.
const (
	exitOK     = 0
	exitFailed = 1
)

// Main serves extraction requests on stdin/stdout until stdin closes. A
// SIGINT or SIGTERM cancels the document in hand; the loader decides what
// happens to it.
//
// With --versions as its last argument it prints the extractor versions
// it was built with (version.All) and exits (`docket debug` asks; a load's
// workers greet with the same string, see worker.Serve).
func Main(stderr io.Writer) int {
	if len(os.Args) > 1 && os.Args[len(os.Args)-1] == VersionsFlag {
		fmt.Println(version.All())
		return exitOK
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if path := os.Getenv("DOCKET_CPUPROFILE"); path != "" {
		// For measuring: DOCKET_CPUPROFILE=/tmp/p docket load (workers write /tmp/p.worker.PID).
		if f, err := os.Create(fmt.Sprintf("%s.worker.%d", path, os.Getpid())); err == nil {
			pprof.StartCPUProfile(f)
			defer func() { pprof.StopCPUProfile(); f.Close() }()
		}
	}
	// One document at a time, its pages read on a C thread of their own
	// (see pdf.UsePageThread: the runtime's monitor stops retaking the
	// worker's one P at every page).
	pdf.UsePageThread()
	in, out, err := worker.ProtocolStdio()
	if err != nil {
		fmt.Fprintln(stderr, "docket-worker:", err)
		return exitFailed
	}
	if err := worker.Serve(ctx, in, out, version.All(), extract.Route); err != nil {
		fmt.Fprintln(stderr, "docket-worker:", err)
		return exitFailed
	}
	return exitOK
}
