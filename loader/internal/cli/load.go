package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/loader"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/internal/worker"
)

func versionString() string { return loader.Version }

// loadAndPublish is `docket load`: load, then publish the read copy, or
// only note the load in the copy's stamp when it found nothing new and the
// copy was current before it (warehouse.DeferPublish).
func loadAndPublish(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var wasCurrent bool
	var whPath string
	dir, _, _ := splitProjectFlag(args)
	if root, err := project.Find(dir); err == nil {
		if p, err := project.Load(root); err == nil {
			whPath = p.Warehouse
			st, _ := warehouse.ReadStamp(whPath)
			wasCurrent = st.Current(whPath)
		}
	}
	code, sum, noRetrieval := runLoad(ctx, args, stdout, stderr)
	after, _ := warehouse.StateOf(whPath) // runLoad has closed the warehouse
	if code == ExitOK && wasCurrent && foundNothing(sum) {
		if ok, _ := warehouse.DeferPublish(whPath, warehouse.UnpublishedLoad{RunID: sum.RunID, FinishedAt: time.Now().UTC()}, after); ok {
			return code
		}
	}
	return publishFinished(ctx, args, finished{cmd: "load", code: code, closed: &closedState{state: after, noRetrieval: noRetrieval}}, stderr)
}

// foundNothing: the load wrote nothing readers see but its run record
// (no document new, changed, deleted, quarantined, landed, extracted,
// vanished or changed while loading, and no schema migrated: a migrated
// warehouse's read copy would keep the old schema until a load found a
// document).
func foundNothing(s *loader.Summary) bool {
	return s != nil && !s.SchemaMigrated && s.New+s.Changed+s.Deleted+s.Quarantined+s.Landed+s.Extracted+s.Vanished+s.ChangedDuringLoad+s.ChangedSincePlan == 0
}

// runLoad is `docket load` up to publishing; noRetrieval says the
// warehouse it closed had no retrieval layer (see closedState).
func runLoad(ctx context.Context, args []string, stdout, stderr io.Writer) (code int, sum *loader.Summary, noRetrieval bool) {
	dir, logFormat, args := splitProjectFlag(args)
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	retry := fs.Bool("retry-quarantined", false, "extract again the documents quarantined earlier")
	reocr := fs.Bool("reocr", false, "OCR again the pages that were OCR'd (text-layer pages are not touched)")
	workers := fs.Int("workers", 0, "worker processes (default: loader.workers, one per core)")
	quiet := fs.Bool("quiet", false, "no progress output")
	verify := fs.Bool("verify", false, "re-hash every file instead of trusting a size, mtime, inode and ctime that match the last load (loader.verify: hash)")
	traceFile := fs.String("memory-trace", "", "write the main process's memory to `FILE` once a second, one JSON line each (resident set, Go heap, DuckDB's pool by tag, the C allocators, the load's phase), and the Go heap profile at the highest resident set to FILE.heap")
	if err := fs.Parse(args); err != nil {
		return ExitUsage, nil, false
	}
	trace, err := startMemTrace(*traceFile)
	if err != nil {
		fmt.Fprintln(stderr, "docket load:", err)
		return ExitUsage, nil, false
	}
	defer trace.Close()
	log := newLogger(logFormat, stderr)
	p, code := loadProject(dir, stderr)
	if p == nil {
		return code, nil, false
	}
	if *workers > 0 {
		p.Loader.Workers = *workers
	}
	for _, s := range p.Sources {
		if st, err := os.Stat(s.Path); err != nil || !st.IsDir() {
			fmt.Fprintf(stderr, "docket: %s: source %q: folder %s does not exist\n", p.File, s.Name, s.Path)
			return ExitUsage, nil, false
		}
	}
	workerCmd, err := workerArgv()
	if err != nil {
		fmt.Fprintln(stderr, "docket load:", err)
		return ExitFailed, nil, false
	}
	opts := loader.Options{Project: p, WorkerCommand: workerCmd,
		RetryQuarantined: *retry, ReOCR: *reocr, Verify: *verify, Phase: trace.setPhase,
		Extracting: func(int) { adviseHeap(loadHeapFloor) }}
	opts.Pool = firstLoadWorkers(opts)
	// The loader's DuckDB work is small appends; one DuckDB thread leaves
	// the cores to the extraction workers.
	trace.setPhase("open")
	db, limit, code := openLoadWarehouse(ctx, p, stderr)
	if db == nil {
		if opts.Pool != nil {
			opts.Pool.Close()
		}
		return code, nil, false
	}
	trace.setDB(db)
	defer func() {
		trace.setDB(nil) // DuckDB's figures stop before it closes
		trace.setPhase("close")
		db.Close()
	}()
	warnExtraction(p, stderr)
	// The main process's Go heap is the plan and the batch in flight
	// (50-80 MB live at 50k documents): GOGC 25 keeps the heap goal at
	// 1.25x that instead of 2x (about 40 MB less peak RSS) for ~2 % of the
	// main process's CPU; but never under loadHeapFloor (see there).
	defer heapFloor(loadHeapFloor, 25)()
	bar := newProgress(stderr, isTerminal(os.Stderr), log)
	if *quiet {
		bar = nil
	}
	opts.Progress = progressFunc(bar)
	sum, err = loader.Load(ctx, db, opts)
	bar.finish()
	// The plan and the run's table of contents are garbage now: the heap
	// goes back to the system before db.Close checkpoints what the load
	// wrote (at 200k documents the closing checkpoint took DuckDB ~200 MB
	// over the ~220 MB the Go heap still held: peak 740 MB).
	debug.FreeOSMemory()
	// Then DuckDB checkpoints under a lower memory_limit than the load's.
	trace.setPhase("checkpoint")
	checkpointLoad(ctx, db, limit, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "docket: load:", err)
		return ExitFailed, nil, false
	}
	noRetrieval = noRetrievalLayer(ctx, db)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(struct {
			*loader.Summary
			PagesPerSecond float64 `json:"pages_per_second"`
		}{sum, sum.PagesPerSecond()})
		return ExitOK, sum, noRetrieval
	}
	fmt.Fprintln(stdout, summaryLine(sum))
	return ExitOK, sum, noRetrieval
}

// firstLoadWorkers starts the load's workers now, before the warehouse
// is opened, when its file does not exist yet: a first load, which
// extracts whatever the sources hold (a first load of empty sources
// starts them for nothing, ~0.1 s of CPU). DuckDB's open, which creates
// the file (~0.1 s), and the listing then overlap the workers' start
// instead of preceding it; on 2 cores the main process alone used one
// core until then. Any other load starts them as before, once its plan
// knows there is a file to extract (loader.Load). nil: not started.
func firstLoadWorkers(opts loader.Options) *worker.Pool {
	if _, err := os.Stat(opts.Project.Warehouse); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	pool := loader.NewPool(opts)
	pool.Warm()
	return pool
}

func summaryLine(s *loader.Summary) string {
	line := fmt.Sprintf("load %s: seen %d, new %d, changed %d, unchanged %d, deleted %d, quarantined %d, pages %d (%d OCR), %.1f pages/s in %s",
		s.RunID, s.Seen, s.New, s.Changed, s.Unchanged, s.Deleted, s.Quarantined, s.Pages, s.OCRPages, s.PagesPerSecond(), s.Duration.Round(time.Millisecond))
	if len(s.ByKind) > 0 {
		var kinds []string
		for k, n := range s.ByKind {
			kinds = append(kinds, fmt.Sprintf("%s=%d", k, n))
		}
		sort.Strings(kinds)
		line += " [quarantined: " + strings.Join(kinds, ", ") + "]"
	}
	if s.Flagged > 0 {
		line += fmt.Sprintf("; %d landed document(s) flagged for review (see staging.reviews)", s.Flagged)
	}
	if s.NeedsOCR > 0 {
		line += fmt.Sprintf("; %d page(s) left without text: they need OCR, which is off or failed", s.NeedsOCR)
	}
	if s.Skipped > 0 {
		line += fmt.Sprintf("; %d entries skipped (see ops.load_skips)", s.Skipped)
	}
	if s.Vanished > 0 || s.ChangedDuringLoad > 0 {
		line += fmt.Sprintf("; %d files vanished or kept changing during the load, %d changed while read (the next load settles them)", s.Vanished, s.ChangedDuringLoad)
	}
	return line
}

func progressFunc(p *progress) func(loader.Progress) {
	if p == nil {
		return nil
	}
	return p.update
}
