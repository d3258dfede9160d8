package loader

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/version"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/internal/worker"
)

// outcome is one document's result, ready to land.
type outcome struct {
	f        *file
	res      *document.Result // nil when reused or failed
	err      *document.Error
	dur      time.Duration
	children []*outcome
	// sameAs: the facts of the content extracted in this run for another
	// file with the same bytes, while that file's family has not gone to
	// the sink yet (nil afterwards: the landing takes them from the
	// content's staging row, see shared.sunk).
	sameAs    *document.Result
	extracted bool // a worker ran on this content in this run (res or err is its verdict)
	flagged   bool // its content has a review reason (extracted now or before)
	refs      []warehouse.AttachmentRef
	// unsettled is the event of a file the load leaves to the next one
	// (vanished, or changing while read): only the event is recorded.
	unsettled string
	fatal     error // ends the load (a full disk)
}

type shared struct {
	mu     sync.Mutex
	byHash map[contentKey]*contentState // contents extracted (or being extracted) in this run
	plan   *Plan
	// wrote are the contents this run extracted and handed to the sink,
	// when the plan looks contents up in the warehouse (whose rows for
	// them are this run's, not the plan's).
	wrote    map[contentKey]bool
	pool     *worker.Pool
	opts     Options
	tmp      *privateDir // the private copies workers read
	docOpts  document.Options
	children map[string][]string                  // known attachments by parent doc_id
	childWas map[string]string                    // their hashes by doc_id
	attached map[string][]warehouse.AttachmentRef // attachments of known contents
	nextID   atomic.Int64                         // worker request ids
}

type contentState struct {
	done chan struct{}
	res  *document.Result
	err  *document.Error
	refs []warehouse.AttachmentRef // the content's attachments, for other files with the same bytes
	// flagged: the content has a review reason (document.Result.Flagged).
	flagged bool
	// retry: the file that took the content could not extract it (it
	// changed under its worker): each file waiting for it extracts its own.
	retry bool
}

// releasePart is how many planned files Execute frees at a time.
const releasePart = 4096

// release copies files into parts of releasePart files, which
// executeParts drops one by one as it hands their files out: one array,
// as a plan holds them, is freed only when the last file has run (a
// first load's 200k files: 32 MB to the end). The copy costs the array
// once more for a moment, before the execution starts and the load's
// memory grows. Up to one part's files are used as they are.
func release(files []PlannedFile) [][]PlannedFile {
	if len(files) <= releasePart {
		return [][]PlannedFile{files}
	}
	parts := make([][]PlannedFile, 0, (len(files)+releasePart-1)/releasePart)
	for len(files) > 0 {
		n := min(releasePart, len(files))
		parts = append(parts, append([]PlannedFile(nil), files[:n]...))
		files = files[n:]
	}
	return parts
}

// filesIn counts the files of parts.
func filesIn(parts [][]PlannedFile) int {
	n := 0
	for _, part := range parts {
		n += len(part)
	}
	return n
}

// Execute runs files of a plan (Todo's files, or any subset of them, in
// the order given) and hands each document's family to sink as soon as
// it is done, from a single goroutine, so sink may write without locks.
// It extracts in worker processes from pool, reuses the plan's known
// contents, and adds its counts to sum (landed, quarantined, pages,
// vanished, ...; the plan's own counts are the caller's). It never opens
// the warehouse: a local load's sink is a Writer, a shard's may write
// files. An error from sink ends the execution.
//
// Each of files is released (zeroed) once its working copy is made: the
// plan's files, ~370 bytes each with their paths, were held to the end
// of a first load (74 MB at 200k documents, at its peak).
func Execute(ctx context.Context, plan *Plan, files []PlannedFile, opts Options, pool *worker.Pool, sum *Summary, sink func(Family) error) error {
	return executeParts(ctx, plan, [][]PlannedFile{files}, opts, pool, sum, sink)
}

// executeParts is Execute over files in parts (see release): each part
// is dropped from parts once its files are handed out, so that a caller
// holding only parts frees the plan's files as they run.
func executeParts(ctx context.Context, plan *Plan, parts [][]PlannedFile, opts Options, pool *worker.Pool, sum *Summary, sink func(Family) error) error {
	total := filesIn(parts)
	if total == 0 {
		return nil
	}
	p := opts.Project
	tmp, err := newPrivateDir("docket-attach-")
	if err != nil {
		return err
	}
	defer tmp.Close()
	sh := &shared{children: plan.Children, childWas: plan.ChildHashes, attached: plan.Attachments, byHash: map[contentKey]*contentState{}, plan: plan, opts: opts, tmp: tmp, docOpts: docOptions(opts)}
	sh.pool = pool
	if plan.lookup != nil {
		sh.wrote = map[contentKey]bool{}
	}
	if sum.ByKind == nil {
		sum.ByKind = map[string]int{}
	}

	// A new file the plan did not hash is not hashed ahead: its bytes are
	// read once, by the copy the worker extracts (big files, see snapshot)
	// or into memory (small ones, see smallFile), and that read gives the
	// hash (hashing new files in the background first read every new file
	// over 256 KiB twice).
	// Each file's working copy is made as it is handed out (one a worker
	// ahead, see below), not for the whole list up front: a first load
	// of 200k documents held ~70 MB of copies waiting their turn.

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan *file)
	// Results queue well beyond the workers: while the writer lands a
	// batch (up to a few hundred ms) the workers go on extracting instead
	// of waiting for it (with room for two results per worker they sat
	// idle through every landing). 128 bounds what waits in memory.
	results := make(chan workDone, 128)
	var wg sync.WaitGroup
	var taken atomic.Int64    // files taken (made ready, or extracted)
	var handedAll atomic.Bool // every file was taken
	var busy atomic.Int64     // files taken and not done
	// Each worker has a file made ready behind the one it extracts: a
	// file is read, hashed and detected (extract, up to pool.Extract,
	// which writes its request to the worker's pipe behind the one it
	// extracts, see worker.Pool) while the workers are busy, not while
	// one waits for it. With one goroutine a worker the 149 corpus PDFs'
	// workers waited ~1.6 ms between two documents (240 ms a load; 150 ms
	// with the file ready; 5-90 ms at load 15 with the request in the
	// pipe ahead, against 120-260 ms without).
	for i := 0; i < 2*p.Loader.Workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range jobs {
				n := taken.Add(1)
				busy.Add(1)
				if Hooks.At != nil {
					testKill(fmt.Sprintf("extract:%d", n))
				}
				if n == int64(total) {
					handedAll.Store(true) // set before the last file's extraction
				}
				o := sh.extract(ctx, f)
				// The files taken and not done beyond one a worker (this
				// one's included) wait ready for a worker: not handed to
				// one yet (Family.Left), and while any waits this worker is
				// not left without work (Family.Tail).
				waiting := max(0, int(busy.Load())-p.Loader.Workers)
				done := workDone{fam: flatten(o), tail: handedAll.Load() && waiting == 0, left: total - int(taken.Load()) + waiting}
				busy.Add(-1)
				select {
				case results <- done:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for k, part := range parts {
			for i := range part {
				f := fileOf(part[i])
				part[i] = PlannedFile{}
				select {
				case jobs <- f:
				case <-ctx.Done():
					return
				}
			}
			parts[k] = nil
		}
	}()
	go func() { wg.Wait(); close(results) }()

	landed := 0
	for r := range results {
		fam := r.fam
		if err := fam[0].fatal; err != nil {
			cancel()
			return fmt.Errorf("loader: %s: %w", fam[0].f.rel, err)
		}
		out := Family{Tail: r.tail, Left: r.left, More: len(results) > 0}
		for _, o := range fam {
			l := landing(o)
			out.Landings = append(out.Landings, l)
			countOutcome(sum, o, l)
			if o.res != nil {
				out.Pages += len(o.res.Pages)
			}
		}
		if fam[0].unsettled == "" {
			out.Gone = goneChildren(fam, sh)
		}
		if sh.wrote != nil {
			sh.mu.Lock()
			for _, o := range fam {
				if o.extracted && o.f.hash != "" {
					sh.wrote[keyOf(o.f.hash)] = true
				}
			}
			sh.mu.Unlock()
		}
		landed++
		if opts.Progress != nil {
			n := 0
			if fam[0].res != nil {
				n = len(fam[0].res.Pages)
			}
			opts.Progress(Progress{Done: landed, Total: total, Path: EscapePath(fam[0].f.rel), Pages: n,
				Reused: out.Landings[0].Reused()})
		}
		if err := sink(out); err != nil {
			cancel()
			return err
		}
		for _, o := range fam {
			sh.sunk(o)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return nil
}

func docOptions(opts Options) document.Options {
	p := opts.Project
	return document.Options{
		MinCharsPerPage: p.Loader.MinCharsPerPage, MaxPages: p.Loader.MaxPages, OCR: p.OCREnabled(),
		OCRLanguages: p.OCR.Languages, OCRDPI: p.OCR.DPI, OCRMinWordConf: p.OCR.MinWordConfidence,
		OCRReviewBelow: p.OCR.ReviewBelow, MaxSheetRows: p.Loader.MaxSheetRows, MaxAttachDepth: p.Loader.MaxAttachmentDepth,
		MaxArchiveMembers: p.Loader.MaxArchiveMembers, MaxArchiveBytes: int64(p.Loader.MaxArchiveBytes),
		MaxPageChars: p.Loader.MaxPageChars, MaxDocChars: p.Loader.MaxDocChars, MaxImagePixels: p.Loader.MaxImagePixels,
		MaxPageTokens: p.Loader.MaxPageTokens, FollowSymlinks: p.Loader.Symlinks == project.SymlinksFollow,
	}
}

// extract detects and extracts one file and, recursively, its attachments.
func (sh *shared) extract(ctx context.Context, f *file) *outcome {
	o := &outcome{f: f}
	start := time.Now()
	defer func() {
		if o.dur == 0 {
			o.dur = time.Since(start)
		}
	}()
	if f.gone {
		o.unsettled = eventVanished
		return o
	}
	if f.err != nil {
		o.err = f.err
		return o
	}
	p := sh.opts.Project
	if f.size > int64(p.Loader.MaxFileSize) {
		o.err = document.Errorf(document.KindTooLarge, "the file is %d MiB, over the %d MiB limit (loader.max_file_size)", f.size>>20, int64(p.Loader.MaxFileSize)>>20)
		return o
	}
	// A small new file is read once: its bytes are hashed, detected and
	// given to the worker from memory (see smallFile).
	defer func() { f.data, f.dataStat = nil, nil }()
	sf, ok := sh.acquire(o, f)
	if !ok {
		return o
	}
	if sf.snap != "" {
		defer os.Remove(sf.snap)
	}
	inPlace, snapPath := sf.inPlace, sf.snap
	if err := sh.detectType(f, sf); err != nil {
		var gone bool
		if o.err, gone = openError("read", err); gone {
			o.unsettled = eventVanished
		}
		return o
	}
	switch {
	case f.size == 0:
		o.err = document.Errorf(document.KindEmpty, "the file is empty (0 bytes)")
		return o
	case f.size > int64(p.Loader.MaxFileSize):
		o.err = document.Errorf(document.KindTooLarge, "the file is %d MiB, over the %d MiB limit (loader.max_file_size)", f.size>>20, int64(p.Loader.MaxFileSize)>>20)
		return o
	}
	// Content already extracted (earlier run, or another file in this run)?
	if ex, ok := sh.known(f.hash); ok {
		if ex.Status == warehouse.StatusQuarantined {
			o.err = &document.Error{Kind: ex.ErrorKind, Msg: ex.ErrorMessage}
			return o
		}
		// Landed content: reuse it; its attachments become this file's children.
		o.flagged = ex.Flagged
		o.children = sh.childrenFromRefs(ctx, f, sh.attached[f.hash])
		return o
	}
	key := keyOf(f.hash)
	sh.mu.Lock()
	st, dup := sh.byHash[key]
	if !dup {
		st = &contentState{done: make(chan struct{})}
		sh.byHash[key] = st
	}
	sh.mu.Unlock()
	if dup {
		select {
		case <-st.done:
		case <-ctx.Done():
		}
		if st.retry && ctx.Err() == nil {
			return sh.extract(ctx, f) // the file that took the content changed under its worker
		}
		o.err, o.sameAs, o.flagged = st.err, st.res, st.flagged
		if o.err == nil {
			o.children = sh.childrenFromRefs(ctx, f, st.refs)
		}
		return o // landed by the first file with these bytes
	}
	defer sh.settle(key, st)
	pathForWorker := snapPath
	if inPlace != nil && !readInPlace(f) {
		inPlace = nil
	}
	if inPlace != nil {
		pathForWorker = f.abs
	} else if f.data != nil {
		if pathForWorker = sh.stage(o, st, f); pathForWorker == "" {
			return o
		}
		defer os.Remove(pathForWorker)
	}
	req := worker.Request{Path: pathForWorker, Name: EscapePath(f.rel), Type: f.info.Type, MIME: f.info.MIME, Encoding: f.info.Encoding, Opts: sh.docOpts}
	req.Opts.NoFolder = pathForWorker != f.abs
	req.ID = sh.nextID.Add(1)
	resp, err := sh.pool.Extract(ctx, req)
	if err == nil && inPlace != nil && !stillSame(f.abs, inPlace) {
		// The file changed while the worker read it: extract the bytes
		// hashed, from memory or from a copy with the same hash.
		if pathForWorker = sh.restage(o, st, f); pathForWorker == "" {
			return o
		}
		defer os.Remove(pathForWorker)
		req.Path, req.ID, req.Opts.NoFolder = pathForWorker, sh.nextID.Add(1), true
		resp, err = sh.pool.Extract(ctx, req)
	}
	var wrong *worker.WrongWorker
	if errors.As(err, &wrong) {
		o.fatal = err // every document would fare the same
		return o
	}
	if err != nil {
		o.err = document.Errorf(document.KindInternal, "worker pool: %v", err)
		st.err = o.err
		return o
	}
	o.res, o.err, o.extracted = resp.Result, resp.Err, true
	st.flagged = o.res.Flagged()
	o.flagged = st.flagged
	if o.res != nil && !version.Current(o.res.ExtractorVersion) {
		// A worker of another docket build (docket-worker is a binary of
		// its own): what it lands would be outdated at once and redone by
		// every load, so the load stops instead.
		o.fatal = fmt.Errorf("the extraction worker made %s output, which this docket does not call current: docket and docket-worker are from different builds (build both: make build)", o.res.ExtractorVersion)
		return o
	}
	hidePrivatePath(o, pathForWorker, EscapePath(f.rel))
	validUTF8(o.res)
	sh.rekeyLaTeX(o, st)
	if resp.Duration > 0 {
		o.dur = resp.Duration // the extraction itself, without waiting for a worker
	}
	if o.res != nil {
		sh.attachments(ctx, o, st, f)
	}
	st.res, st.err = docFacts(o.res), o.err
	return o
}

// attachments turns the extraction's attachments into child files,
// extracted at once (deeper than loader.max_attachment_depth: a warning).
func (sh *shared) attachments(ctx context.Context, o *outcome, st *contentState, f *file) {
	p := sh.opts.Project
	var kids []*file
	for i, a := range o.res.Attachments {
		if f.depth+1 > p.Loader.MaxAttachmentDepth {
			o.res.Warnings = append(o.res.Warnings, fmt.Sprintf("attachment %q not loaded: deeper than loader.max_attachment_depth=%d", a.Name, p.Loader.MaxAttachmentDepth))
			continue
		}
		name := EscapePath(a.Name)
		if name == "" {
			name = fmt.Sprintf("attachment-%d", i+1)
		}
		ref := warehouse.AttachmentRef{Seq: i, Name: name, ChildHash: hashBytes(a.Data), Size: int64(len(a.Data))}
		o.refs = append(o.refs, ref)
		c := sh.childFile(f, ref)
		c.data = a.Data
		kids = append(kids, c)
	}
	o.res.Attachments = nil
	st.refs = o.refs
	for _, c := range kids {
		o.children = append(o.children, sh.extract(ctx, c))
	}
}

// docFacts is what another file with the same bytes lands from a result
// (its document row: metadata, page count, warnings, MIME), without the
// pages, elements and tables: keeping whole results for every content of
// the run (to answer duplicates that may come later) held the text of
// the whole corpus in memory.
func docFacts(r *document.Result) *document.Result {
	if r == nil {
		return nil
	}
	f := &document.Result{Type: r.Type, MIME: r.MIME, Metadata: r.Metadata, Warnings: r.Warnings, ExtractorVersion: r.ExtractorVersion}
	if f.Metadata.PageCount == 0 {
		f.Metadata.PageCount = len(r.Pages)
	}
	return f
}

// known returns the extraction the plan offers for the content hash:
// one the warehouse had before this run (see Plan.Content).
func (sh *shared) known(hash string) (warehouse.Extraction, bool) {
	if hash == "" {
		return warehouse.Extraction{}, false
	}
	if sh.wrote != nil {
		sh.mu.Lock()
		mine := sh.wrote[keyOf(hash)]
		sh.mu.Unlock()
		if mine {
			return warehouse.Extraction{}, false
		}
	}
	return sh.plan.Content(hash)
}

// settled reports whether a content needs no extraction in this run:
// extracted before, or taken by another file of this run.
func (sh *shared) settled(hash string) bool {
	if _, ok := sh.known(hash); ok {
		return true
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	_, ok := sh.byHash[keyOf(hash)]
	return ok
}

// childFile is the document of one attachment of f, with its event.
func (sh *shared) childFile(f *file, ref warehouse.AttachmentRef) *file {
	c := &file{docID: hashString(fmt.Sprintf("%s#%d/%s", f.docID, ref.Seq, ref.Name)), source: f.source, rel: f.rel + "#" + ref.Name,
		uri: f.uri + "#" + url.PathEscape(ref.Name), parent: f.docID, depth: f.depth + 1, size: ref.Size, mtime: f.mtime, hash: ref.ChildHash}
	was, known := sh.childWas[c.docID]
	c.action = ChildEvent(f.event, was, known, c.hash)
	c.event = string(c.action)
	return c
}

// childrenFromRefs lands the attachments of a reused content as children
// of f; their contents are known (or being extracted in this run).
func (sh *shared) childrenFromRefs(ctx context.Context, f *file, refs []warehouse.AttachmentRef) []*outcome {
	var out []*outcome
	for _, ref := range refs {
		c := sh.childFile(f, ref)
		_, known := sh.known(c.hash)
		sh.mu.Lock()
		_, inRun := sh.byHash[keyOf(c.hash)]
		sh.mu.Unlock()
		if !known && !inRun {
			o := &outcome{f: c, err: document.Errorf(document.KindInternal, "attachment %q of reused content has no extraction; load with --retry-quarantined", ref.Name)}
			out = append(out, o)
			continue
		}
		out = append(out, sh.extract(ctx, c))
	}
	return out
}

// unreadable records on o why a read of its file gave no bytes to extract
// (vanished, kept changing, or an error) and reports whether it did.
func (o *outcome) unreadable(s snap) bool {
	switch {
	case s.gone:
		o.unsettled = eventVanished
	case s.unstable:
		o.unsettled = eventChanging
	case s.err != nil:
		o.err = s.err
	default:
		return false
	}
	return true
}
