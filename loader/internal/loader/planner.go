package loader

import (
	"errors"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// The planner decides file by file as the listing and the warehouse's
// documents pass side by side, both in walk order (warehouse.WalkKey):
// each source's files as the walk lists them, its known top-level
// documents in batches of planBatch. What it keeps is what the executor
// needs of the files that execute (new, changed, retried, re-OCR,
// repaired, deleted: PlannedFiles) and a count of the unchanged ones,
// so a no-op load's memory does not grow with the warehouse.
//
// Kept whole, because they are small beside the documents and a decision
// may need any of them: the live attachments and archive members
// (children), the contents of families with attachments, staging's
// attachments, LaTeX documents' includes, the contents with OCR'd pages
// (--reocr only), and the documents a walk order cannot find by path
// (odd: a path that is not UTF-8, or a name holding 0x01).

// planBatch is how many files and known documents the planner takes at
// a time: the files it hashes in parallel, the rows of one query.
var planBatch = 4096

// errOrder: the warehouse's documents did not come in walk order (a
// collation that is not byte order): the load plans from whole maps.
var errOrder = errors.New("loader: the warehouse's documents are not in walk order")

// stateSource is what the planner reads of the warehouse's state.
type stateSource interface {
	// docs returns up to n top-level documents of source src whose
	// WalkKey is greater than after, in WalkKey order.
	docs(src, after string, n int) ([]warehouse.KnownContent, error)
	// others returns up to n top-level documents of sources not among
	// names whose doc_id is greater than after, in doc_id order.
	others(names []string, after string, n int) ([]warehouse.KnownContent, error)
	// odd returns the top-level documents whose path does not make their
	// doc_id, or holds 0x01, by doc_id.
	odd() (map[string]warehouse.KnownContent, error)
	// small returns the state kept whole (see above).
	small(reocr bool) (*smallState, error)
	// outdated returns the landed contents made by an extractor version
	// that pol does not call current.
	outdated(pol Policy) (map[string]warehouse.Extraction, error)
	// forget drops a content from what Contents returns.
	forget(h string)
	// contents and lookup are what the plan offers the executor for
	// reuse: a map, and a look-up for what the map does not hold.
	contents() map[string]warehouse.Extraction
	lookup() func(string) (warehouse.Extraction, bool)
	// empty: the warehouse had no document and no extraction.
	empty() bool
}

// smallState is the state a plan keeps whole.
type smallState struct {
	kids        map[string]warehouse.Known      // live attached documents by doc_id
	family      map[string]warehouse.Extraction // their contents, and those of staging.attachments
	attachments map[string][]warehouse.AttachmentRef
	includes    map[string]warehouse.LaTeXSources
	ocr         map[string]bool
}

// entrySource is a listing as the planner reads it, in walk order.
type entrySource interface {
	// next returns the next file (nil at the end).
	peek() *entry
	pop()
	// unreadable are the folders found unreadable, by source; whole once
	// peek returned nil.
	unreadable() map[string][]string
	skips() []warehouse.Skip
}

// listingSource reads a Listing made beforehand.
type listingSource struct {
	l *Listing
	i int
}

func (s *listingSource) peek() *entry {
	if s.i < len(s.l.files) {
		return s.l.files[s.i]
	}
	return nil
}

func (s *listingSource) pop() {
	s.l.files[s.i] = nil // not needed past its decision
	s.i++
}
func (s *listingSource) unreadable() map[string][]string { return s.l.unreadable }
func (s *listingSource) skips() []warehouse.Skip         { return s.l.Skips }

// walkCmp compares two relative paths in walk order: as their
// warehouse.WalkKey, without making them.
func walkCmp(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		if x == '/' {
			x = 1
		}
		if y == '/' {
			y = 1
		}
		if x != y {
			return int(x) - int(y)
		}
	}
	return len(a) - len(b)
}

// odd reports whether a walk order cannot place a file by its path.
func oddPath(rel string) bool { return !utf8.ValidString(rel) || strings.IndexByte(rel, 1) >= 0 }

// pending is a listed file paired with the warehouse's document.
type pending struct {
	f   *entry
	row *warehouse.KnownContent // nil: not known (or not found)
}

// planner holds a plan being made.
type planner struct {
	src  stateSource
	opts Options
	pol  Policy
	sm   *smallState
	odd  map[string]warehouse.KnownContent // not paired yet
	// isOdd are the odd documents' doc_ids, paired or not: the ordered
	// reads skip them.
	isOdd map[string]bool
	keep  bool // keep the unchanged doc_ids (a plan that leaves the process)
	onNew func()

	children         map[string][]string
	childHashes      map[string]string
	dropped          map[string]warehouse.Extraction
	reextracted      map[string]bool
	todo, news, rest []PlannedFile
	unlisted         []warehouse.Known
	unchanged        []string
	nUnchanged       int
	latex            []includer
	bytes            int64
	verify           bool
}

// makePlan decides every file's action from the state and the listing.
func makePlan(src stateSource, ents entrySource, opts Options, keep bool, onNew func()) (*Plan, error) {
	p := opts.Project
	pl := &planner{src: src, opts: opts, pol: policyOf(opts), keep: keep, onNew: onNew,
		dropped: map[string]warehouse.Extraction{}, reextracted: map[string]bool{},
		verify: opts.Verify || p.Loader.Verify == project.VerifyHash}
	opts.phase("state") // what is kept whole; the documents are read as the plan goes
	var err error
	if pl.sm, err = src.small(opts.ReOCR); err != nil {
		return nil, err
	}
	if pl.odd, err = src.odd(); err != nil {
		return nil, err
	}
	pl.isOdd = make(map[string]bool, len(pl.odd))
	for id := range pl.odd {
		pl.isOdd[id] = true
	}
	pl.children, pl.childHashes = ChildrenOf(pl.sm.kids)
	opts.phase("plan")
	names := make([]string, 0, len(p.Sources))
	for _, s := range p.Sources {
		names = append(names, s.Name)
		if err := pl.source(s.Name, ents); err != nil {
			return nil, err
		}
	}
	// Files of sources the project does not name (a listing made
	// elsewhere) are decided as the walk left them.
	for f := ents.peek(); f != nil; f = ents.peek() {
		if err := pl.batch([]pending{pl.pairOdd(f)}); err != nil {
			return nil, err
		}
		ents.pop()
	}
	for after := ""; ; {
		rows, err := src.others(names, after, planBatch)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if !pl.isOdd[r.DocID] {
				pl.unlisted = append(pl.unlisted, r.Known)
			}
		}
		if len(rows) < planBatch {
			break
		}
		after = rows[len(rows)-1].DocID
	}
	for _, r := range pl.odd {
		pl.unlisted = append(pl.unlisted, r.Known)
	}
	return pl.finish(ents)
}

// source decides about the files and documents of one source.
func (pl *planner) source(name string, ents entrySource) error {
	var rows []warehouse.KnownContent // fetched, not merged yet
	after, more := "", true           // after: the last path fetched
	fetch := func() error {
		got, err := pl.src.docs(name, warehouse.WalkKey(after), planBatch)
		if err != nil {
			return err
		}
		more = len(got) == planBatch
		kept := got[:0] // fetched when rows is empty: no copy
		for _, r := range got {
			if after != "" && walkCmp(r.RelPath, after) <= 0 {
				return errOrder
			}
			after = r.RelPath
			if !pl.isOdd[r.DocID] {
				kept = append(kept, r)
			}
		}
		if len(rows) == 0 {
			rows = kept
		} else {
			rows = append(rows, kept...)
		}
		return nil
	}
	last := ""
	for {
		var batch []pending
		for f := ents.peek(); f != nil && f.source == name && len(batch) < planBatch; f = ents.peek() {
			ents.pop()
			if oddPath(f.rel) {
				batch = append(batch, pl.pairOdd(f))
				continue
			}
			if last != "" && walkCmp(f.rel, last) <= 0 {
				return errOrder
			}
			last = f.rel
			for {
				if len(rows) == 0 && more {
					if err := fetch(); err != nil {
						return err
					}
				}
				if len(rows) == 0 || walkCmp(rows[0].RelPath, f.rel) >= 0 {
					break
				}
				pl.unlisted = append(pl.unlisted, rows[0].Known)
				rows = rows[1:]
			}
			if len(rows) > 0 && rows[0].RelPath == f.rel && rows[0].DocID == f.docID {
				batch = append(batch, pending{f: f, row: &rows[0]})
				rows = rows[1:]
				continue
			}
			batch = append(batch, pl.pairOdd(f))
		}
		if len(batch) == 0 {
			break
		}
		if err := pl.batch(batch); err != nil {
			return err
		}
	}
	for {
		for _, r := range rows {
			pl.unlisted = append(pl.unlisted, r.Known)
		}
		rows = nil // decided rows may be held (LaTeX documents): no reuse
		if !more {
			return nil
		}
		if err := fetch(); err != nil {
			return err
		}
	}
}

// pairOdd pairs a file with an odd document of its doc_id, if any.
func (pl *planner) pairOdd(f *entry) pending {
	if r, ok := pl.odd[f.docID]; ok {
		delete(pl.odd, f.docID)
		return pending{f: f, row: &r}
	}
	return pending{f: f}
}

// batch hashes what it must of a batch of listed files and decides about
// each, in listing order.
func (pl *planner) batch(batch []pending) error {
	p := pl.opts.Project
	var toHash []*entry
	read := map[*entry]bool{}
	for _, b := range batch {
		f := b.f
		if b.row == nil || b.row.Status == warehouse.StatusDeleted {
			if pl.onNew != nil && goesToWorker(f, p) {
				pl.onNew()
				pl.onNew = nil
			}
			if pl.opts.HashNew {
				toHash = append(toHash, f)
			}
			continue
		}
		if !pl.verify && f.err == nil && !f.gone && StatClean(b.row.Known, f.stat) {
			f.hash = b.row.Hash
			continue
		}
		toHash = append(toHash, f)
	}
	pl.bytes += hashAll(toHash, p.Loader.Workers)
	for _, f := range toHash {
		read[f] = true
	}
	for _, b := range batch {
		if b.row == nil || b.row.Status == warehouse.StatusDeleted {
			var k *warehouse.Known
			if b.row != nil {
				k = &b.row.Known
			}
			pl.news = append(pl.news, planned(b.f, Decide(Facts{Known: k, Listed: true, Gone: b.f.gone}, pl.pol).Action))
			continue
		}
		pl.decide(b.f, b.row, read[b.f])
	}
	return nil
}

// content is the content of hash h as the decisions so far leave it,
// for a file whose document is row.
func (pl *planner) content(h string, row *warehouse.KnownContent) (warehouse.Extraction, bool) {
	if ex, gone := pl.dropped[h]; gone {
		// Another file with these bytes brought the outdated content
		// back: this one is re-extracted too, not repaired.
		return ex, pl.reextracted[h]
	}
	if h == row.Hash {
		return row.Content, row.Extracted
	}
	ex, ok := pl.sm.family[h]
	return ex, ok
}

// drop drops a content from what the plan offers for reuse (row: the
// document whose decision drops it, nil for none).
func (pl *planner) drop(h string, row *warehouse.KnownContent) {
	if _, done := pl.dropped[h]; done {
		return
	}
	var ex warehouse.Extraction
	var ok bool
	if row != nil && h == row.Hash {
		ex, ok = row.Content, row.Extracted
	} else {
		ex, ok = pl.sm.family[h]
	}
	if !ok {
		return
	}
	pl.dropped[h] = ex
	delete(pl.sm.family, h)
	pl.src.forget(h)
}

func (pl *planner) decide(f *entry, row *warehouse.KnownContent, read bool) {
	k := row.Known
	if src, ok := pl.sm.includes[f.docID]; ok && f.hash != k.Hash {
		f.hash = latexKnownKey(src, f.hash, k.Hash)
	}
	ex, extracted := pl.content(f.hash, row)
	facts := Facts{Known: &k, Listed: true, Gone: f.gone, Hash: f.hash, Content: &ex, Extracted: extracted, OCR: pl.sm.ocr[f.hash]}
	if !f.gone && k.Hash == f.hash {
		facts.Redo = DescendantsToRedo(f.docID, pl.children, pl.sm.kids, pl.sm.family, pl.sm.ocr, pl.pol)
	}
	d := Decide(facts, pl.pol)
	for _, h := range d.Forget {
		pl.drop(h, row)
	}
	if d.Action == ActReextract {
		pl.reextracted[f.hash] = true
	}
	if src, ok := pl.sm.includes[f.docID]; ok && d.Action == ActUnchanged {
		pl.latex = append(pl.latex, includer{f: f, k: k, src: src, row: row})
		return
	}
	pl.place(f, k, d.Action, read)
}

func (pl *planner) place(f *entry, k warehouse.Known, a Action, read bool) {
	if _, ok := pl.sm.includes[f.docID]; ok && a.Executes() && f.hash == k.Hash {
		// A LaTeX document's known hash is its content's key, not
		// always its main file's hash (latexKey): the executor
		// hashes the file and keys what it extracts (see rekeyLaTeX).
		f.hash = ""
	}
	restat := a == ActUnchanged && read && !StatClean(k, f.stat) && f.stat.TakenN != 0
	switch {
	case a == ActUnchanged && !restat:
		if pl.keep {
			pl.unchanged = append(pl.unchanged, f.docID)
		} else {
			pl.nUnchanged++
		}
	case a.Executes():
		pl.todo = append(pl.todo, planned(f, a))
	default:
		pf := planned(f, a)
		pf.Restat = restat
		pl.rest = append(pl.rest, pf)
	}
}

// finish decides what needs every file decided first: contents no longer
// current, known documents not listed, LaTeX documents by their includes.
func (pl *planner) finish(ents entrySource) (*Plan, error) {
	// Contents made by an extractor version no longer current that no
	// known file brought back are not reused either: a new file with
	// those bytes is extracted afresh.
	old, err := pl.src.outdated(pl.pol)
	if err != nil {
		return nil, err
	}
	for h, ex := range old {
		if _, done := pl.dropped[h]; !done {
			pl.dropped[h] = ex
			delete(pl.sm.family, h)
			pl.src.forget(h)
		}
	}
	bySize(pl.news)
	// Known top-level documents not listed now: deleted, except under
	// folders that could not be read (their files are not gone, just
	// unreadable now).
	unreadable := ents.unreadable()
	var gone []PlannedFile
	for _, k := range pl.unlisted {
		if k.ParentDocID != "" || k.Status == warehouse.StatusDeleted {
			continue
		}
		k := k
		a := Decide(Facts{Known: &k, UnderUnreadable: under(unreadable[k.SourceName], k.RelPath)}, pl.pol).Action
		gone = append(gone, PlannedFile{Action: a, DocID: k.DocID, Source: k.SourceName, Rel: k.RelPath, Hash: k.Hash})
	}
	pl.unlisted = nil
	sort.Slice(gone, func(i, j int) bool { return gone[i].DocID < gone[j].DocID })
	var moved map[string]bool // built only for LaTeX documents: an entry per file a first load lands
	if len(pl.latex) > 0 {
		moved = movedFiles(pl.todo, pl.news, gone)
	}
	for _, c := range pl.latex {
		// A document changed by its includes leaves its content to the
		// documents that still have it: what it extracts now has a key
		// of its own.
		a := c.action(moved)
		if a == ActReextract {
			pl.drop(c.k.Hash, c.row)
		}
		pl.place(c.f, c.k, a, false)
	}
	bySize(pl.todo)
	dropParentsOfRedone(pl.sm.family, pl.dropped, pl.sm.attachments, func(h string) { pl.drop(h, nil) })
	sort.Strings(pl.unchanged)
	var redo []string
	for h := range pl.dropped {
		redo = append(redo, h)
	}
	sort.Strings(redo)
	files := append(append(append(pl.todo, pl.news...), pl.rest...), gone...)
	return &Plan{Files: files, Unchanged: pl.unchanged, UnchangedCount: pl.nUnchanged, Skips: ents.skips(), Contents: pl.src.contents(),
		lookup: pl.src.lookup(), Dropped: redo, Attachments: pl.sm.attachments, Children: pl.children, ChildHashes: pl.childHashes,
		BytesHashed: pl.bytes, fresh: pl.src.empty()}, nil
}
