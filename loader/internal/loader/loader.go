// Package loader is docket's load stage. It takes a project's sources and
// a warehouse and produces landed documents: it walks and hashes files,
// decides new / changed / unchanged / deleted against raw.documents before
// any extraction, detects types, sends contents that were never extracted
// to isolated worker processes, and hands every outcome to a single
// writer that lands it in one transaction. It returns a Summary and never
// prints; progress goes to a callback.
package loader

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
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
}

// Progress is reported after each document.
type Progress struct {
	Done, Total int
	Path        string
	Pages       int
}

// Summary is what a load did.
type Summary struct {
	RunID       string         `json:"run_id"`
	Seen        int            `json:"seen"`
	New         int            `json:"new"`
	Changed     int            `json:"changed"`
	Unchanged   int            `json:"unchanged"`
	Deleted     int            `json:"deleted"`
	Quarantined int            `json:"quarantined"`
	Landed      int            `json:"landed"`
	Extracted   int            `json:"extracted"` // distinct contents extracted in this run
	Pages       int            `json:"pages"`     // pages extracted in this run
	OCRPages    int            `json:"ocr_pages"`
	NeedsOCR    int            `json:"needs_ocr_pages"` // pages left without text (OCR off or failed)
	Duration    time.Duration  `json:"duration_ns"`
	ByKind      map[string]int `json:"quarantined_by_kind,omitempty"`
	// Skipped entries of the source folders (symlinks, special files,
	// unreadable folders, ...): see ops.load_skips.
	Skipped int `json:"skipped"`
	// Vanished: files deleted or renamed while the load ran (recorded as
	// events; the next load decides about them). ChangedDuringLoad: files
	// whose bytes changed between hashing and extraction (the bytes
	// extracted are hashed anew; these are the bytes landed).
	Vanished          int `json:"vanished"`
	ChangedDuringLoad int `json:"changed_during_load"`
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
	data                         []byte // attachments: their bytes (written to a temp file for the worker)
	event                        string
	err                          *document.Error // pre-extraction failure (too large, empty, unreadable)
	gone                         bool            // vanished (deleted or renamed) since the listing
	changedDuringLoad            bool            // its bytes changed between hashing and extraction
	hashed                       chan struct{}   // closed once hash (and err) are set; nil: already set
}

// waitHashed returns once f's hash is known.
func (f *file) waitHashed(ctx context.Context) error {
	if f.hashed == nil {
		return nil
	}
	select {
	case <-f.hashed:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// DocID is the stable id of a file: sha256 of source name and relative path.
func DocID(source, rel string) string {
	h := sha256.Sum256([]byte(source + "/" + filepath.ToSlash(rel)))
	return hex.EncodeToString(h[:])
}

func newRunID(now time.Time) string {
	b := make([]byte, 4)
	rand.Read(b)
	return now.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b)
}

// Load runs one load over every source of the project.
func Load(ctx context.Context, db *warehouse.DB, opts Options) (*Summary, error) {
	p := opts.Project
	start := time.Now()
	if err := db.EnsureSchema(ctx); err != nil {
		return nil, err
	}
	sum := &Summary{RunID: newRunID(start), ByKind: map[string]int{}}
	run := warehouse.Run{ID: sum.RunID, StartedAt: start, Version: Version, Options: map[string]any{
		"retry_quarantined": opts.RetryQuarantined, "reocr": opts.ReOCR, "sources": p.SourceNames(), "workers": p.Loader.Workers, "symlinks": p.Loader.Symlinks}}
	if err := db.StartRun(ctx, run); err != nil {
		return nil, fmt.Errorf("loader: start run: %w", err)
	}
	known, err := db.KnownDocuments(ctx)
	if err != nil {
		return nil, fmt.Errorf("loader: read documents: %w", err)
	}
	extractions, err := db.Extractions(ctx)
	if err != nil {
		return nil, fmt.Errorf("loader: read extractions: %w", err)
	}
	attached, err := db.Attachments(ctx)
	if err != nil {
		return nil, fmt.Errorf("loader: read attachments: %w", err)
	}
	reocr := map[string]bool{}
	if opts.ReOCR {
		if reocr, err = db.OCRContents(ctx); err != nil {
			return nil, err
		}
	}

	listed := list(p)
	files, unreadable := listed.files, listed.unreadable
	sum.Skipped = len(listed.skips)
	if err := db.RecordSkips(ctx, sum.RunID, start, listed.skips); err != nil {
		return nil, fmt.Errorf("loader: record skipped entries: %w", err)
	}
	// The workers start while the files are hashed when there is surely
	// something to extract (a new file); otherwise, lazily, on the first
	// file found changed. A worker process takes ~0.1 s to start.
	pool := worker.NewPool(worker.PoolOptions{Command: opts.WorkerCommand, Env: opts.WorkerEnv, Size: p.Loader.Workers,
		Timeout: p.Loader.Timeout.Duration, MaxMemory: int64(p.Loader.MaxWorkerMemory)})
	defer pool.Close()
	if anyNew(files, known, p) {
		pool.Warm()
	}
	// Files the warehouse knows are hashed before the decisions (their
	// hash says whether they changed, and a decision may drop contents
	// from the extraction cache). A new file is new whatever its bytes:
	// new files are hashed in the background, biggest first, and each
	// goes to a worker as soon as its hash is known (hashing all of a
	// corpus first left the workers idle for 70–130 ms).
	var old, fresh []*file
	for _, f := range files {
		if isNew(f, known) {
			fresh = append(fresh, f)
		} else {
			old = append(old, f)
		}
	}
	hashAll(old, p.Loader.Workers)
	bySize := func(fs []*file) {
		// Biggest files first: a long document started last would leave
		// the other workers idle at the end of the run. Files with the
		// same bytes keep their order (same size, stable sort).
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].size > fs[j].size })
	}
	bySize(fresh)
	for _, f := range fresh {
		f.hashed = make(chan struct{})
	}
	go hashAll(fresh, p.Loader.Workers)
	children := childrenOf(known)
	seen := map[string]bool{}
	var todo []*file
	var touched []string
	for _, f := range old {
		seen[f.docID] = true
		sum.Seen++
		k := known[f.docID]
		ex, extracted := extractions[f.hash]
		// forget drops contents from the extraction cache so they are
		// extracted again in this run.
		forget := func(hashes ...string) {
			for _, h := range hashes {
				delete(extractions, h)
			}
		}
		switch {
		case f.gone:
			// Vanished between the listing and hashing: an event says so,
			// the row stays as it is and the next load decides.
			f.event = eventVanished
		case k.Hash != f.hash:
			f.event = "changed"
		case opts.RetryQuarantined && k.Status == warehouse.StatusQuarantined:
			f.event = "retried"
			if extracted && ex.Status == warehouse.StatusQuarantined {
				forget(f.hash)
			}
		case opts.ReOCR && reocr[f.hash]:
			f.event = "reocr"
			forget(f.hash)
		case k.Status == warehouse.StatusQuarantined && retryable(k.ErrorKind, ex, p):
			f.event = "retried" // a crash may not happen again
			if extracted && ex.Status == warehouse.StatusQuarantined {
				forget(f.hash)
			}
		case k.Status == warehouse.StatusLanded && !extracted:
			f.event = "repaired" // landed, but its content is missing from staging
		default:
			// An attachment that needs work brings its parent back: the
			// attachment's bytes only exist inside the parent.
			if redo := descendantsToRedo(f.docID, children, known, extractions, reocr, opts); len(redo) > 0 {
				f.event = "retried"
				forget(append(redo, f.hash)...)
				break
			}
			sum.Unchanged++
			touched = append(touched, f.docID)
			continue
		}
		if f.event == "changed" {
			sum.Changed++
		}
		todo = append(todo, f)
	}
	now := time.Now()
	if err := db.Touch(ctx, sum.RunID, now, touched); err != nil {
		return nil, err
	}

	// Deleted: top-level documents not seen now, except under folders that
	// could not be read (their files are not gone, just unreadable now).
	var gone []string
	for id, k := range known {
		if k.ParentDocID == "" && !seen[id] && k.Status != warehouse.StatusDeleted && !under(unreadable[k.SourceName], k.RelPath) {
			gone = append(gone, id)
		}
	}
	sort.Strings(gone)

	bySize(todo)
	for _, f := range fresh {
		seen[f.docID] = true
		sum.Seen++
		sum.New++
		f.event = "new"
	}
	todo = append(todo, fresh...)
	if err := process(ctx, db, opts, pool, sum, todo, extractions, children, attached); err != nil {
		db.FinishRun(context.Background(), runRow(run, sum, "failed"))
		return sum, err
	}
	pool.Release()
	testKill("before-delete")
	n, err := db.MarkDeleted(ctx, sum.RunID, time.Now(), gone)
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

func runRow(r warehouse.Run, s *Summary, status string) warehouse.Run {
	r.FinishedAt = time.Now()
	r.Status = status
	r.Seen, r.New, r.Changed, r.Unchanged, r.Deleted = s.Seen, s.New, s.Changed, s.Unchanged, s.Deleted
	r.Quarantined, r.Landed, r.Pages, r.OCRPages = s.Quarantined, s.Landed, s.Pages, s.OCRPages
	return r
}

// isNew: the warehouse has no live document for f (never seen, or a
// tombstone), so f is new whatever its bytes.
func isNew(f *file, known map[string]warehouse.Known) bool {
	k, ok := known[f.docID]
	return !ok || k.Status == warehouse.StatusDeleted
}

// anyNew reports whether files has a file that is new to the warehouse
// and will go to a worker (not empty, not over the size limit).
func anyNew(files []*file, known map[string]warehouse.Known, p *project.Project) bool {
	for _, f := range files {
		if isNew(f, known) && f.err == nil && f.size > 0 && f.size <= int64(p.Loader.MaxFileSize) {
			return true
		}
	}
	return false
}

// descendantsToRedo lists the content hashes of a document's attachments
// (recursively) that this load must extract again: crashed or timed out,
// quarantined under --retry-quarantined, OCR'd under --reocr, or landed
// without staging rows.
func descendantsToRedo(id string, children map[string][]string, known map[string]warehouse.Known,
	extractions map[string]warehouse.Extraction, reocr map[string]bool, opts Options) []string {
	var out []string
	for _, c := range children[id] {
		k := known[c]
		_, extracted := extractions[k.Hash]
		if k.Hash != "" && ((k.Status == warehouse.StatusQuarantined && (retryable(k.ErrorKind, extractions[k.Hash], opts.Project) || opts.RetryQuarantined)) ||
			(opts.ReOCR && reocr[k.Hash]) || (k.Status == warehouse.StatusLanded && !extracted)) {
			out = append(out, k.Hash)
		}
		out = append(out, descendantsToRedo(c, children, known, extractions, reocr, opts)...)
	}
	return out
}

func hashString(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func hashBytes(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func childrenOf(known map[string]warehouse.Known) map[string][]string {
	out := map[string][]string{}
	for id, k := range known {
		if k.ParentDocID != "" && k.Status != warehouse.StatusDeleted {
			out[k.ParentDocID] = append(out[k.ParentDocID], id)
		}
	}
	return out
}

// retryable says whether the next load extracts a quarantined content
// again without being asked (issue 17: hostile files cost once). A file
// that could not be read is retried every load (it costs no worker); a
// crash or an internal error up to loader.max_attempts extractions in
// all; a time-out only when loader.timeout is now longer than the
// extraction that was stopped (the same limit would stop it again: a
// bomb timing out cost a full time-out on every load). Anything else
// waits for --retry-quarantined.
func retryable(kind string, ex warehouse.Extraction, p *project.Project) bool {
	switch kind {
	case document.KindUnreadable:
		return true
	case document.KindCrash, document.KindInternal:
		return ex.Attempts < p.Loader.MaxAttempts
	case document.KindTimeout:
		return ex.Duration > 0 && p.Loader.Timeout.Duration > ex.Duration+ex.Duration/10 && ex.Attempts < p.Loader.MaxAttempts
	}
	return false
}

// Hooks are fault-injection points, set by tests (a test binary that
// doubles as docket installs them in its TestMain); production code leaves
// them nil and never reads them from the environment.
var Hooks struct {
	// At runs at named points of a load: "land:N" after the N-th landed
	// batch, "listed" after the walk, "before-delete", "before-finish".
	At func(point string)
}

func testKill(point string) {
	if Hooks.At != nil {
		Hooks.At(point)
	}
}
