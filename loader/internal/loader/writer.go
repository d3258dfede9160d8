package loader

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"strings"
	"syscall"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// Writer is a load's single writer: it lands families in batches, each
// batch in one transaction (a family is never split across batches).
// `docket load` feeds it from Execute; landing a shard's output feeds it
// the families read back.
type Writer struct {
	db    Lander
	runID string
	sum   *Summary
	batch []warehouse.Landing
	gone  []string
	pages int
	last  time.Time
	lands int
	// A batch is landed past either limit or Every after the last one.
	// 256 documents: each batch costs fixed statements (~15 ms here),
	// which at 64 small documents per batch were over half the main
	// process's CPU; pages bound what a batch of big documents holds,
	// and 500 (not 2,000) keeps landing going while big documents are
	// extracted, so that the batch landed after the last extraction,
	// while the workers wait, is small (149 corpus PDFs, 1,564 pages:
	// whole command 7.7-8.9 s instead of 8.9-10.3 s, alternating runs).
	Limits struct {
		Docs, Pages int
		Every       time.Duration
	}
	// Again says what is kept and what to run after a failed commit
	// ends the landing (see stopLanding): a load's batches landed
	// before it are kept; a shard's scratch database is not.
	Again string
	// fresh: the warehouse had no documents and no extractions when the
	// run started (see StartFresh); landedDocs and landedHashes are the
	// doc_ids and extracted contents this Writer landed since, which the
	// warehouse then has.
	fresh                    bool
	landedDocs, landedHashes landedSet
}

// landedSet is a set of strings kept as 64-bit hashes: a first load
// keeps every doc_id and content hash it landed until its end, and as
// strings (two maps of 64-byte hex keys) that was ~190 bytes per
// document, ~38 MB of live heap at 200k documents (heap profile at the
// peak of a first 200k load, docket load --memory-trace); as hashes it
// is ~10-20 bytes per document in each set. Two different strings may
// share a hash; the set then says it has a string it has not: the
// landing is not marked Fresh and the warehouse looks it up, which is
// what every landing of a later load does. It never says it lacks a
// string it has.
type landedSet struct {
	seed maphash.Seed
	m    map[uint64]struct{}
}

func newLandedSet() landedSet {
	return landedSet{seed: maphash.MakeSeed(), m: map[uint64]struct{}{}}
}

func (s landedSet) add(v string) { s.m[maphash.String(s.seed, v)] = struct{}{} }

func (s landedSet) has(v string) bool {
	_, ok := s.m[maphash.String(s.seed, v)]
	return ok
}

// batchDocs is a Writer's default Limits.Docs.
const batchDocs = 256

// loadAgain is a Writer's Again for a load.
const loadAgain = "the batches landed before it are kept, run `docket load` again to go on where this one stopped"

// BatchEvery is how long the Writer holds documents before it lands them
// when neither batch limit is reached: what a killed load has extracted
// and not yet landed (and extracts again when re-run) is at most this.
// It was one second: on a loaded machine (a second of wall time holds
// few documents) the 149 corpus PDFs landed in ~25 batches and the main
// process used 2.7-3.1 CPU-s instead of 1.6-1.7 (1,000 small documents:
// 3.0-3.8 instead of 2.2-2.4).
const BatchEvery = 10 * time.Second

// Lander lands a batch in one transaction: the warehouse (*warehouse.DB),
// or a shard's scratch database (*warehouse.Scratch), whose rows are
// landed later by `docket land`.
type Lander interface {
	Land(ctx context.Context, runID string, now time.Time, batch []warehouse.Landing, deleted []string) error
}

// NewWriter returns a Writer for the run; landings that fail and are
// quarantined instead are counted in sum.
func NewWriter(db Lander, runID string, sum *Summary) *Writer {
	w := &Writer{db: db, runID: runID, sum: sum, last: time.Now(), Again: loadAgain}
	w.Limits.Docs, w.Limits.Pages, w.Limits.Every = batchDocs, 500, BatchEvery
	return w
}

// StartFresh tells the Writer that the warehouse has no documents and no
// extractions (read at the run's start, before anything was landed): the
// landings of documents and contents it has not landed itself are then
// marked Fresh, and the warehouse skips looking them up (about four
// statements per batch on a first load).
func (w *Writer) StartFresh() {
	w.fresh = true
	w.landedDocs, w.landedHashes = newLandedSet(), newLandedSet()
}

// markFresh sets Fresh on the batch's landings the warehouse cannot have.
func (w *Writer) markFresh() {
	for i := range w.batch {
		l := &w.batch[i]
		l.Fresh = w.fresh && !w.landedDocs.has(l.Doc.DocID) && (!l.Extracted || !w.landedHashes.has(l.Doc.Hash))
	}
}

// landed records what a landed batch wrote (a failed one ends freshness:
// what of it was landed is not known here).
func (w *Writer) landed(ok bool) {
	if !w.fresh {
		return
	}
	if !ok {
		w.fresh = false
		return
	}
	for _, l := range w.batch {
		w.landedDocs.add(l.Doc.DocID)
		if l.Extracted {
			w.landedHashes.add(l.Doc.Hash)
		}
	}
}

// Add queues a family and lands the batch when it is full (Limits), and
// earlier while the execution ends, when no other family is waiting
// (Family.More): the landing then takes a core a worker has left, or
// soon will, instead of running after the last extraction while every
// worker waits.
//   - A family of the extraction's tail (Family.Tail: a worker is idle)
//     is landed at once with what the Writer holds (the 149 corpus PDFs'
//     last batch was up to 500 pages, landed while both workers waited);
//     families that were already waiting are added first, so that the
//     burst done during a landing goes in one batch, not one each (a
//     batch costs fixed statements: ~15 ms for one document).
//   - A family of the execution's ending (Family.Left: fewer files left
//     to hand out than this Writer's batch holds, Limits.Docs) lands the
//     batch once it holds half the page limit: a long document done late
//     (the corpus's 619-page PDF, its extraction ~36 % of the load's)
//     otherwise found up to 500 pages queued before it, and the landing
//     of both ran on after the last extraction. Earlier in a big load,
//     batches stay full size.
func (w *Writer) Add(ctx context.Context, fam Family) error {
	w.batch = append(w.batch, fam.Landings...)
	w.gone = append(w.gone, fam.Gone...)
	w.pages += fam.Pages
	ending := !fam.More && (fam.Tail || fam.Left > 0 && fam.Left < w.Limits.Docs && w.pages >= w.Limits.Pages/2)
	if ending || len(w.batch) >= w.Limits.Docs || w.pages >= w.Limits.Pages || time.Since(w.last) > w.Limits.Every {
		return w.Flush(ctx)
	}
	return nil
}

// Flush lands what is queued.
func (w *Writer) Flush(ctx context.Context) error {
	if len(w.batch) == 0 && len(w.gone) == 0 {
		return nil
	}
	now := time.Now()
	w.markFresh()
	if err := w.db.Land(ctx, w.runID, now, w.batch, w.gone); err != nil {
		if ctx.Err() != nil {
			w.landed(false)
			return fmt.Errorf("loader: land: %w", err)
		}
		if err := stopLanding(err, len(w.batch), w.Again); err != nil {
			w.landed(false)
			return err
		}
		// One bad document must not end the run: land one at a time and
		// quarantine the documents that cannot be landed.
		if err := landOneByOne(ctx, w.db, w.runID, w.sum, now, w.batch, w.gone, err); err != nil {
			w.landed(false)
			if err := stopLanding(err, 1, w.Again); err != nil {
				return err
			}
			return fmt.Errorf("loader: land: %w", err)
		}
	}
	w.landed(true)
	w.batch, w.gone, w.pages, w.last = w.batch[:0], w.gone[:0], 0, now
	w.lands++
	testKill(fmt.Sprintf("land:%d", w.lands))
	return nil
}

func landing(o *outcome) warehouse.Landing {
	f := o.f
	d := warehouse.DocRow{DocID: f.docID, SourceName: f.source, RelPath: EscapePath(f.rel), RelPathBytes: rawBytes(f.rel), URI: f.uri, Hash: f.hash, Size: f.size,
		DetectedType: f.info.Type, ExtType: f.info.ExtType, MIME: f.info.MIME, Mismatch: f.info.Mismatch,
		ParentDocID: f.parent, Depth: f.depth, MTime: f.mtime, Stat: f.stat, Status: warehouse.StatusLanded}
	if o.err != nil {
		d.Status, d.ErrorKind, d.ErrorMessage = warehouse.StatusQuarantined, o.err.Kind, o.err.Msg
	}
	if r := o.res; r != nil || o.sameAs != nil {
		if r == nil {
			r = o.sameAs
		}
		d.Meta = r.Metadata
		if d.Meta.PageCount == 0 {
			d.Meta.PageCount = len(r.Pages)
		}
		d.Warnings = r.Warnings
		if r.MIME != "" {
			d.MIME = r.MIME
		}
	}
	ev := f.event
	if ev == "" {
		ev = "new" // attachments
	}
	if d.Status == warehouse.StatusQuarantined {
		ev = "quarantined"
	}
	if o.unsettled != "" {
		d.Status, d.ErrorKind, d.ErrorMessage = "", "", unsettledMessage[o.unsettled]
		return warehouse.Landing{Doc: d, Event: o.unsettled, EventOnly: true}
	}
	if f.changedDuringLoad {
		d.Warnings = append(d.Warnings, "the file changed while the load ran: the bytes read for extraction were landed (the next load sees any later change)")
	}
	return warehouse.Landing{Doc: d, Event: ev, Content: o.res, Duration: o.dur, Extracted: o.extracted, Attachments: o.refs, Flagged: o.flagged}
}

// unsettledMessage explains the events of files left to the next load.
var unsettledMessage = map[string]string{
	eventVanished: "the file was deleted or renamed while the load ran; the next load records what became of it",
	eventChanging: "the file kept changing while the load read it; the next load extracts it",
}

func countOutcome(s *Summary, o *outcome, l warehouse.Landing) {
	if o.f.changedDuringLoad {
		s.ChangedDuringLoad++
	}
	if o.unsettled != "" {
		if o.f.event == "new" {
			s.New-- // counted as new when it was listed
		}
		s.Vanished++
		return
	}
	if o.f.parent != "" { // an attachment: the plan did not count it
		s.seen(o.f.action)
	}
	if l.Doc.Status == warehouse.StatusQuarantined {
		s.Quarantined++
		s.ByKind[l.Doc.ErrorKind]++
	} else {
		s.Landed++
		if l.Flagged {
			s.Flagged++
		}
	}
	if o.res != nil {
		s.Extracted++
		s.Pages += len(o.res.Pages)
		for _, p := range o.res.Pages {
			if p.Method == document.MethodOCR {
				s.OCRPages++
			}
			if p.NeedsOCR && p.Method != document.MethodOCR {
				s.NeedsOCR++
			}
		}
	}
}

// recount moves a document counted (when its family was made) as landed,
// or quarantined for another reason, to the quarantined as internal.
func recount(sum *Summary, l warehouse.Landing) {
	switch l.Doc.Status {
	case warehouse.StatusLanded:
		sum.Landed--
		if l.Flagged {
			sum.Flagged--
		}
		sum.Quarantined++
	case warehouse.StatusQuarantined:
		if sum.ByKind[l.Doc.ErrorKind]--; sum.ByKind[l.Doc.ErrorKind] == 0 {
			delete(sum.ByKind, l.Doc.ErrorKind)
		}
	default:
		return // an event only: the document's row is not touched
	}
	sum.ByKind[document.KindInternal]++
}

// diskFull reports whether a landing failed for want of disk space. DuckDB
// reports it as text ("Could not write file ...: No space left on
// device"), not as an errno: a full disk once quarantined every document
// of the batch as internal.
func diskFull(err error) bool {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return true
	}
	s := strings.ToLower(err.Error())
	return strings.Contains(s, syscall.ENOSPC.Error()) || strings.Contains(s, syscall.EDQUOT.Error())
}

// stopLanding returns the error that ends the load when a landing of n
// documents failed for no document's fault (nil otherwise): the disk is
// full, or the commit failed (see warehouse.CommitError: DuckDB's state
// in this process is not to be trusted, so nothing more is written and
// nothing is retried or quarantined); again says what is kept and what
// to run (Writer.Again).
func stopLanding(err error, n int, again string) error {
	switch {
	case diskFull(err):
		return fmt.Errorf("loader: land: disk full, the warehouse could not be written (free space and load again): %w", err)
	case warehouse.IsCommitError(err):
		return fmt.Errorf("loader: land: the warehouse could not commit a batch of %d document(s), and this load writes nothing more "+
			"(after a failed commit DuckDB's state in this process is not to be trusted); %s: %w", n, again, err)
	}
	return nil
}

// landOneByOne lands a batch that failed as a whole document by document;
// a document that still fails is landed as quarantined (internal) with
// the warehouse's error, without its content. The batch's Fresh marks
// hold for the batch landed at once (the warehouse refuses a batch naming
// a document twice); one by one, a document or an extracted content
// landed here already is in the warehouse, so its later landings are
// looked up (not Fresh), as markFresh does across batches.
func landOneByOne(ctx context.Context, db Lander, runID string, sum *Summary, now time.Time, batch []warehouse.Landing, deleted []string, batchErr error) error {
	docs, contents := map[string]bool{}, map[string]bool{}
	for _, l := range batch {
		if docs[l.Doc.DocID] || l.Extracted && contents[l.Doc.Hash] {
			l.Fresh = false
		}
		docs[l.Doc.DocID] = true
		err := db.Land(ctx, runID, now, []warehouse.Landing{l}, nil)
		if err == nil && l.Extracted {
			contents[l.Doc.Hash] = true
		}
		if err != nil {
			if stopLanding(err, 1, "") != nil {
				return err // no document's fault: the load stops, nothing is quarantined
			}
			q := l
			q.Content, q.Extracted, q.Attachments = nil, false, nil
			q.Doc.Status, q.Doc.ErrorKind = warehouse.StatusQuarantined, document.KindInternal
			q.Doc.ErrorMessage = fmt.Sprintf("its extraction could not be written to the warehouse (the next load tries again): %v", err)
			q.Event = "quarantined"
			if err2 := db.Land(ctx, runID, now, []warehouse.Landing{q}, nil); err2 != nil {
				if stopLanding(err2, 1, "") != nil {
					return err2
				}
				return fmt.Errorf("batch: %v; document %s: %w", batchErr, l.Doc.RelPath, err2)
			}
			recount(sum, l)
		}
	}
	return db.Land(ctx, runID, now, nil, deleted)
}
