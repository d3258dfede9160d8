// Package loader is docket's load stage. It takes a project's sources and
// a warehouse and produces landed documents. It returns a Summary and
// never prints; progress goes to a callback.
//
// A load is a plan, its execution and a finish:
//
//   - Plan. PlanFrom walks the sources and reads what the warehouse
//     knows of them as it goes (documents in walk order, in batches, with
//     their extractions; attachments and the like whole), hashes what it
//     must and decides, with the pure function Decide, one Action per
//     file: new, changed, unchanged, retried, reocr, repaired,
//     vanished, deleted or kept. A Plan is data (JSON-able): its Files
//     (doc id, source, paths, stat, expected hash, action) and what
//     execution needs from the warehouse (Contents that may be reused,
//     Attachments, Children). Plan.Todo lists the files to execute, in
//     order.
//   - Execute runs any subset of Todo's files: it detects types, sends
//     contents never extracted to isolated worker processes (a
//     worker.Pool), reuses known contents, and hands each top-level
//     document with its attachments (a Family of warehouse.Landing values)
//     to a sink from one goroutine. It never opens the warehouse, so a
//     shard can run it on another machine and write the families out.
//   - Land and finish. A Writer lands families in batches, each in one
//     transaction; Load then tombstones the plan's deleted documents and
//     records the run.
//
// Load is the three in one process.
package loader

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/version"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/internal/worker"
)

// Version is docket's version, recorded with every run.
var Version = "0.1.0"

// Options configure one load.
type Options struct {
	Project          *project.Project
	WorkerCommand    []string // argv that starts `docket worker`
	WorkerEnv        []string
	RetryQuarantined bool // re-extract contents quarantined earlier
	ReOCR            bool // re-extract contents that have OCR'd pages
	Progress         func(Progress)
	// Verify re-hashes every known file (--verify; loader.verify: hash
	// does the same) instead of trusting a matching stat.
	Verify bool
	// Phase, when set, is told each step of the load as it starts:
	// "state" (reading what the warehouse knows and a plan keeps whole),
	// "plan" (reading its documents and deciding), "execute",
	// "finish" (a memory trace names them).
	Phase func(string)
	// Extracting, when set, is told how many files the plan runs, once
	// the plan is made and before the first runs; it is not called when
	// the plan runs none (a load that finds nothing new or changed).
	Extracting func(files int)
	// HashNew: the plan hashes new files too (a plan executed elsewhere
	// carries every expected hash); a local load hashes them while it
	// executes.
	HashNew bool
	// Pool, when set, is the load's worker pool, made by NewPool with
	// these options and maybe started before Load (`docket load` starts
	// a first load's workers before DuckDB creates the warehouse); Load
	// uses it and closes it. nil: Load makes its own.
	Pool *worker.Pool
}

// NewPool is the worker pool of a load with opts: one worker per
// loader.workers, each started by opts.WorkerCommand. Load makes it
// unless Options.Pool gives it one made here.
func NewPool(opts Options) *worker.Pool {
	p := opts.Project
	return worker.NewPool(worker.PoolOptions{Command: opts.WorkerCommand, Env: opts.WorkerEnv, Size: p.Loader.Workers,
		Timeout: p.Loader.Timeout.Duration, MaxMemory: int64(p.Loader.MaxWorkerMemory), Versions: version.All()})
}

func (o Options) phase(name string) {
	if o.Phase != nil {
		o.Phase(name)
	}
}

// Progress is reported after each document.
type Progress struct {
	Done, Total int
	Path        string
	Pages       int // pages extracted for this file in this run
	// Reused: the file's content was not extracted for it: another file
	// with the same bytes was (in this run or an earlier one), so Pages is
	// 0 though the document has pages.
	Reused bool
}

// Summary is what a load did.
type Summary struct {
	RunID       string `json:"run_id"`
	Seen        int    `json:"seen"`
	New         int    `json:"new"`
	Changed     int    `json:"changed"`
	Unchanged   int    `json:"unchanged"`
	Deleted     int    `json:"deleted"`
	Quarantined int    `json:"quarantined"`
	Landed      int    `json:"landed"`
	Extracted   int    `json:"extracted"` // distinct contents extracted in this run
	Pages       int    `json:"pages"`     // pages extracted in this run
	OCRPages    int    `json:"ocr_pages"`
	NeedsOCR    int    `json:"needs_ocr_pages"` // pages left without text (OCR off or failed)
	// Flagged: documents landed in this run with a review reason
	// (staging.reviews: no text, pages missing, low OCR confidence, ...),
	// their content extracted now or before, which the load's summary
	// line says.
	Flagged  int            `json:"flagged_for_review"`
	Duration time.Duration  `json:"duration_ns"`
	ByKind   map[string]int `json:"quarantined_by_kind,omitempty"`
	// Skipped entries of the source folders (symlinks, special files,
	// unreadable folders, ...): see ops.load_skips.
	Skipped int `json:"skipped"`
	// Vanished: files deleted or renamed while the load ran (recorded as
	// events; the next load decides about them). ChangedDuringLoad: files
	// whose bytes changed between hashing and extraction (the bytes
	// extracted are hashed anew; these are the bytes landed).
	Vanished          int `json:"vanished"`
	ChangedDuringLoad int `json:"changed_during_load"`
	// ChangedSincePlan: files of a shard whose bytes were not the plan's
	// (reported and left for the next load).
	ChangedSincePlan int `json:"changed_since_plan,omitempty"`
	// BytesHashed are the bytes read to decide what changed (the copies
	// extraction reads are not counted).
	BytesHashed int64 `json:"bytes_hashed"`
	// WorkerPeakRSS is the highest resident set size a worker process
	// reached in this run (its own high-water mark, read before it was
	// stopped: worker.Pool.PeakRSS), to compare with
	// loader.max_worker_memory.
	WorkerPeakRSS int64 `json:"worker_peak_rss_bytes"`
	// SchemaMigrated: the warehouse was of an older schema version and
	// this load migrated it (its tables were rebuilt), so the load wrote
	// something readers see even when no document changed.
	SchemaMigrated bool `json:"schema_migrated,omitempty"`
}

// Events of files the load could not settle.
const (
	eventVanished = "vanished_during_load"
	eventChanging = "changing_during_load"
)

// PagesPerSecond is the extraction throughput of the run.
func (s *Summary) PagesPerSecond() float64 {
	if s.Duration <= 0 {
		return 0
	}
	return float64(s.Pages) / s.Duration.Seconds()
}

// file is one document to account for in this run.
type file struct {
	docID, source, rel, abs, uri string
	parent                       string
	depth                        int
	size                         int64
	mtime                        time.Time
	hash                         string
	info                         detect.Info
	data                         []byte      // attachments: their bytes (written to a temp file for the worker)
	dataStat                     os.FileInfo // the stat of the file data was read from (small files)
	event                        string
	err                          *document.Error // pre-extraction failure (too large, empty, unreadable)
	gone                         bool            // vanished (deleted or renamed) since the listing
	changedDuringLoad            bool            // its bytes changed between hashing and extraction
	stat                         FileStat
	action                       Action
}

// DocID is the stable id of a file: sha256 of source name and relative path.
func DocID(source, rel string) string {
	return docIDIn(nil, source, rel)
}

// docIDIn is DocID(source, rel), as the string of known's document when
// the warehouse knows it: a listing of known files holds each doc_id
// once, not a second 64-byte copy per file beside the state's.
func docIDIn(known map[string]warehouse.Known, source, rel string) string {
	var id [2 * sha256.Size]byte
	h := sha256.Sum256([]byte(source + "/" + filepath.ToSlash(rel)))
	hex.Encode(id[:], h[:])
	if k, ok := known[string(id[:])]; ok && k.DocID == string(id[:]) {
		return k.DocID
	}
	return string(id[:])
}

func newRunID(now time.Time) string {
	b := make([]byte, 4)
	rand.Read(b)
	return now.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b)
}

// Load runs one load over every source of the project: plan (list,
// decide), execute (extract, land through one Writer), finish (tombstone
// the deleted documents, record the run).
func Load(ctx context.Context, db *warehouse.DB, opts Options) (*Summary, error) {
	p := opts.Project
	start := time.Now()
	sum := &Summary{RunID: newRunID(start), ByKind: map[string]int{}}
	// The workers start while the plan is made when there is surely
	// something to extract (a new file); otherwise, lazily, on the first
	// file found changed. A worker process takes ~0.1 s to start. (A
	// pool given in opts may have started them already.)
	pool := opts.Pool
	if pool == nil {
		pool = NewPool(opts)
	}
	defer func() {
		pool.Close()
		sum.WorkerPeakRSS = pool.PeakRSS()
	}()
	sweepTemporary() // folders of loads killed outright
	// A new warehouse knows no file: the files are listed first and the
	// workers start while its tables are created and the run recorded.
	var listed *Listing
	if fresh, err := db.Fresh(ctx); err == nil && fresh {
		if listed = List(p, nil); listed.HasNew(&State{}, p) {
			pool.Warm()
		}
	}
	run := warehouse.Run{ID: sum.RunID, StartedAt: start, Version: Version, Options: map[string]any{
		"retry_quarantined": opts.RetryQuarantined, "reocr": opts.ReOCR, "sources": p.SourceNames(), "workers": p.Loader.Workers, "symlinks": p.Loader.Symlinks}}
	// Plan: a new warehouse's from its listing, made while the workers
	// start; any other's as its documents are read (PlanFrom).
	var plan *Plan
	var setup chan error
	if listed != nil {
		var err error
		if plan, err = MakePlan(&State{Known: map[string]warehouse.Known{}, Extractions: map[string]warehouse.Extraction{}, OCR: map[string]bool{}}, listed, opts); err != nil {
			return nil, err
		}
		sum.addPlan(plan)
		// The tables are created and the run recorded while the first
		// files are extracted: the workers waited for it (0.1-0.3 s of
		// DuckDB statements, the 149 corpus PDFs' first load). Nothing is
		// landed before (the sink waits for setup), and the execution
		// reads nothing of the warehouse (a new one knows no file).
		setup = make(chan error, 1)
		go func() { setup <- startRun(ctx, db, sum, run, plan) }()
	} else {
		if err := ensureRun(ctx, db, sum, run); err != nil {
			return nil, err
		}
		var err error
		if plan, err = PlanFrom(ctx, db, opts, func() { pool.Warm() }); err != nil {
			return nil, err
		}
		sum.addPlan(plan)
		if err := recordPlan(ctx, db, run, plan); err != nil {
			return nil, err
		}
	}

	// Execute.
	opts.phase("execute")
	w := NewWriter(db, sum.RunID, sum)
	if plan.fresh {
		w.StartFresh() // a first load: nothing to look up in the warehouse
	}
	// waitSetup waits for a new warehouse's tables and run (once).
	var setupErr error
	waitSetup := func() error {
		if setup != nil {
			setupErr, setup = <-setup, nil
		}
		return setupErr
	}
	// The plan gives its files up, in parts the execution frees as they
	// run (a first load's are the whole corpus: at 200k documents a 32 MB
	// array of PlannedFile, held to the end before).
	parts := release(plan.takeTodo())
	if n := filesIn(parts); n > 0 && opts.Extracting != nil {
		opts.Extracting(n)
	}
	err := executeParts(ctx, plan, parts, opts, pool, sum, func(f Family) error {
		if err := waitSetup(); err != nil {
			return err
		}
		return w.Add(ctx, f)
	})
	if err := waitSetup(); err != nil { // the run was not recorded
		return nil, err
	}
	if err == nil {
		err = w.Flush(ctx)
	}
	if err != nil {
		db.FinishRun(context.Background(), runRow(run, sum, "failed"))
		return sum, err
	}
	pool.Release()

	// Finish.
	opts.phase("finish")
	testKill("before-delete")
	n, err := db.MarkDeleted(ctx, sum.RunID, time.Now(), plan.IDs(ActDeleted))
	if err != nil {
		return sum, err
	}
	sum.Deleted = n
	sum.Duration = time.Since(start)
	testKill("before-finish")
	if err := db.FinishRun(ctx, runRow(run, sum, "completed")); err != nil {
		return sum, err
	}
	return sum, nil
}

// ensureRun creates or migrates the warehouse's tables and records the
// run as running.
func ensureRun(ctx context.Context, db *warehouse.DB, sum *Summary, run warehouse.Run) error {
	if err := db.EnsureSchema(ctx); err != nil {
		return err
	}
	sum.SchemaMigrated = db.Migrated()
	if err := db.StartRun(ctx, run); err != nil {
		return fmt.Errorf("loader: start run: %w", err)
	}
	return nil
}

// recordPlan records what the plan decided beside its files: the entries
// it skipped, and the stats of files read again (unchanged documents are
// not written: their last_seen_at is the run's, see stg_documents).
func recordPlan(ctx context.Context, db *warehouse.DB, run warehouse.Run, plan *Plan) error {
	if err := db.RecordSkips(ctx, run.ID, run.StartedAt, plan.Skips); err != nil {
		return fmt.Errorf("loader: record skipped entries: %w", err)
	}
	if err := db.RecordStats(ctx, plan.Restats()); err != nil {
		return err
	}
	testKill("planned")
	return nil
}

// startRun is a new warehouse's ensureRun and recordPlan, run beside the
// first extractions.
func startRun(ctx context.Context, db *warehouse.DB, sum *Summary, run warehouse.Run, plan *Plan) error {
	if err := ensureRun(ctx, db, sum, run); err != nil {
		return err
	}
	return recordPlan(ctx, db, run, plan)
}

// addPlan counts the plan's decisions: every listed file is seen.
func (s *Summary) addPlan(p *Plan) {
	for _, f := range p.Files {
		switch f.Action {
		case ActDeleted, ActKept:
			continue
		}
		s.seen(f.Action)
	}
	s.Seen += len(p.Unchanged) + p.UnchangedCount
	s.Unchanged += len(p.Unchanged) + p.UnchangedCount
	s.BytesHashed += p.BytesHashed
}

// seen counts a file seen with action a (new, changed and unchanged
// apart; the other actions are counted as seen only).
func (s *Summary) seen(a Action) {
	switch a {
	case ActNew:
		s.New++
	case ActChanged:
		s.Changed++
	case ActUnchanged:
		s.Unchanged++
	}
	s.Seen++
}

func runRow(r warehouse.Run, s *Summary, status string) warehouse.Run {
	r.FinishedAt = time.Now()
	r.Status = status
	r.Seen, r.New, r.Changed, r.Unchanged, r.Deleted = s.Seen, s.New, s.Changed, s.Unchanged, s.Deleted
	r.Quarantined, r.Landed, r.Pages, r.OCRPages = s.Quarantined, s.Landed, s.Pages, s.OCRPages
	return r
}

// isNew: the warehouse has no live document for f (never seen, or a
// tombstone), so f is new whatever its bytes.
func isNew(f *entry, known map[string]warehouse.Known) bool {
	k, ok := known[f.docID]
	return !ok || k.Status == warehouse.StatusDeleted
}

// anyNew reports whether files has a file that is new to the warehouse
// and will go to a worker (not empty, not over the size limit).
func anyNew(files []*entry, known map[string]warehouse.Known, p *project.Project) bool {
	for _, f := range files {
		if isNew(f, known) && goesToWorker(f, p) {
			return true
		}
	}
	return false
}

func hashString(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func hashBytes(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Hooks are fault-injection points, set by tests (a test binary that
// doubles as docket installs them in its TestMain); production code leaves
// them nil and never reads them from the environment.
var Hooks struct {
	// At runs at named points of a load: "planned" once the plan is made
	// (and the stats of files read again are recorded), "land:N" after the
	// N-th landed batch, "extract:N" before the N-th file of the plan is
	// extracted, "before-delete", "before-finish".
	At func(point string)
}

func testKill(point string) {
	if Hooks.At != nil {
		Hooks.At(point)
	}
}
