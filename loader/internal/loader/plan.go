package loader

import (
	"context"
	"fmt"
	"net/url"
	"sort"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// State is what the warehouse knows that a plan is decided from.
type State struct {
	Known       map[string]warehouse.Known      // raw.documents by doc_id
	Extractions map[string]warehouse.Extraction // staging.extractions by source_hash
	Attachments map[string][]warehouse.AttachmentRef
	OCR         map[string]bool // contents with OCR'd pages; read only under --reocr
	// Includes are what landed LaTeX documents' extractions recorded of
	// the files their \input/\include commands named, by doc_id (see
	// includer).
	Includes map[string]warehouse.LaTeXSources
}

// ReadState reads what a plan needs from the warehouse (read-only).
func ReadState(ctx context.Context, db *warehouse.DB, reocr bool) (*State, error) {
	st := &State{OCR: map[string]bool{}}
	var err error
	// The extractions first: a document's hash is then the string of its
	// content's key (one copy of each hash, not two).
	if st.Extractions, err = db.Extractions(ctx); err != nil {
		return nil, fmt.Errorf("loader: read extractions: %w", err)
	}
	if st.Known, err = db.KnownDocuments(ctx, st.Extractions); err != nil {
		return nil, fmt.Errorf("loader: read documents: %w", err)
	}
	if st.Attachments, err = db.Attachments(ctx); err != nil {
		return nil, fmt.Errorf("loader: read attachments: %w", err)
	}
	if st.Includes, err = db.LaTeXIncludes(ctx); err != nil {
		return nil, fmt.Errorf("loader: read LaTeX includes: %w", err)
	}
	if reocr {
		if st.OCR, err = db.OCRContents(ctx); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// FileStat is what a listing records of a file besides its path.
type FileStat = warehouse.FileStat

// PlannedFile is one file of a plan and its action.
type PlannedFile struct {
	Action Action `json:"action"`
	DocID  string `json:"doc_id"`
	Source string `json:"source"`
	// Rel is the path relative to the source, as the file system has it
	// (it may hold bytes that are not UTF-8: encode it as bytes, not as
	// a JSON string, when the plan leaves the process). Abs is the path
	// the executor opens.
	Rel string `json:"rel_path"`
	Abs string `json:"path"`
	// URI is the file:// URI of Abs; the planner leaves it empty (uri()
	// makes it when the file executes) and a shard plan carries it.
	URI  string   `json:"uri"`
	Stat FileStat `json:"stat"`
	// Hash is the sha256 of the bytes the plan saw (the known hash for a
	// file judged unchanged without reading it; "" for a new file the
	// plan did not hash: the executor hashes it).
	Hash string `json:"hash,omitempty"`
	// Err is a failure found while planning (the file cannot be read):
	// the executor quarantines the file with it.
	Err *document.Error `json:"error,omitempty"`
	// Restat: an unchanged file the plan read because its stat did not
	// vouch for it; the stat is recorded for the next load (RecordStats).
	Restat bool `json:"restat,omitempty"`
}

// Plan is every file's action, decided before any extraction, and what
// the execution needs from the warehouse. A plan is data: it can be made
// once and executed later, elsewhere, in parts (see Execute).
type Plan struct {
	// Files are in execution order (the files Todo returns first: known
	// files to redo, then new ones, biggest first in each), then the
	// unchanged ones read again for their stat (Restat), the kept and the
	// deleted ones.
	Files []PlannedFile `json:"files"`
	// Unchanged are the other unchanged files' doc_ids, sorted: all a
	// load does with them is count them (a planned file each held ~370
	// bytes per file of a no-op load).
	Unchanged []string `json:"unchanged"`
	// UnchangedCount are the unchanged files not in Unchanged: a load
	// that plans from the warehouse as it goes keeps only their number.
	UnchangedCount int `json:"unchanged_count,omitempty"`
	// Skips are entries of the sources that are not documents.
	Skips []warehouse.Skip `json:"skips,omitempty"`
	// Contents are the extractions the executor may reuse (a file whose
	// bytes were extracted before is not extracted again), without the
	// contents this plan extracts again (retries, re-OCR).
	Contents map[string]warehouse.Extraction `json:"contents"`
	// lookup finds a content the warehouse has that Contents does not
	// hold (a plan made as the warehouse was read holds none of them;
	// see Content); nil: Contents is all.
	lookup func(string) (warehouse.Extraction, bool)
	// fresh: the warehouse had no document and no extraction.
	fresh bool
	// Dropped are the contents the warehouse has that the plan does not
	// reuse (extracted again, or outdated), sorted.
	Dropped []string `json:"dropped,omitempty"`
	// Attachments are the attachments of known contents; Children the
	// live attachments of known documents by parent doc_id.
	Attachments map[string][]warehouse.AttachmentRef `json:"attachments"`
	Children    map[string][]string                  `json:"children"`
	// ChildHashes are the hashes of the children in Children by doc_id:
	// a child's event depends on them (see ChildEvent).
	ChildHashes map[string]string `json:"child_hashes"`
	// BytesHashed are the bytes read to decide.
	BytesHashed int64 `json:"bytes_hashed"`
}

// Todo returns the files the executor runs, in order. MakePlan puts them
// first in Files, and then Todo is that part of Files, not a copy (a
// first load of 200k documents held both, ~35 MB apart from the paths);
// a plan ordered otherwise (read from elsewhere) gets a copy. Its
// capacity ends with it: appending to it never writes into Files.
func (p *Plan) Todo() []PlannedFile {
	n := 0
	for n < len(p.Files) && p.Files[n].Action.Executes() {
		n++
	}
	prefix := true
	for _, f := range p.Files[n:] {
		if f.Action.Executes() {
			prefix = false
			break
		}
	}
	if prefix {
		return p.Files[:n:n]
	}
	var out []PlannedFile
	for _, f := range p.Files {
		if f.Action.Executes() {
			out = append(out, f)
		}
	}
	return out
}

// takeTodo returns Todo and leaves Files without those files (a copy of
// the others, whose order it keeps): the caller that executes them is
// then the only holder of their array, which Execute frees as it goes.
// Counted (Summary.addPlan) and stats recorded (Restats) before; Files
// keeps what the finish reads (the deleted files).
func (p *Plan) takeTodo() []PlannedFile {
	todo := p.Todo()
	var rest []PlannedFile
	for _, f := range p.Files {
		if !f.Action.Executes() {
			rest = append(rest, f)
		}
	}
	p.Files = rest
	return todo
}

// Content returns the extraction the plan offers for reuse of the
// content with hash h: one the warehouse had when the plan was made, not
// dropped by it (extracted again, or outdated).
func (p *Plan) Content(h string) (warehouse.Extraction, bool) {
	if ex, ok := p.Contents[h]; ok || p.lookup == nil {
		return ex, ok
	}
	if i := sort.SearchStrings(p.Dropped, h); i < len(p.Dropped) && p.Dropped[i] == h {
		return warehouse.Extraction{}, false
	}
	return p.lookup(h)
}

// IDs returns the doc_ids of the files with the action.
func (p *Plan) IDs(a Action) []string {
	var out []string
	if a == ActUnchanged {
		out = append(out, p.Unchanged...)
	}
	for _, f := range p.Files {
		if f.Action == a {
			out = append(out, f.DocID)
		}
	}
	return out
}

// Count returns how many files have the action.
func (p *Plan) Count(a Action) int {
	n := 0
	if a == ActUnchanged {
		n = len(p.Unchanged) + p.UnchangedCount
	}
	for _, f := range p.Files {
		if f.Action == a {
			n++
		}
	}
	return n
}

// HasNew reports whether the listing has a file that is new to the
// warehouse and will surely go to a worker: a load starts its workers
// while it plans.
func (l *Listing) HasNew(st *State, p *project.Project) bool {
	return anyNew(l.files, st.Known, p)
}

// MakePlan decides every file's action from the warehouse's state held in
// memory and the listing (see makePlan; PlanFrom reads the warehouse as
// it decides). It reads the files it must hash to decide (known files;
// new ones too under opts.HashNew); Decide makes each decision.
//
// MakePlan consumes st and l rather than copy them: the plan's Contents
// is st.Extractions without the contents it drops (listed in Dropped),
// and the listing's files are released as they are decided.
func MakePlan(st *State, l *Listing, opts Options) (*Plan, error) {
	inWalkOrder(l, opts.Project)
	return makePlan(newMemState(st, opts.Project), &listingSource{l: l}, opts, true, nil)
}

// dropParentsOfRedone drops from contents the known contents with an
// attachment (at any depth) whose content this plan extracts again: a
// new file with those bytes is extracted afresh, its attachments coming
// from that extraction, as a known file with such an attachment is (see
// DescendantsToRedo, whose contents Decide forgets with the parent's).
// Reused as it is, its attachment would find neither a content to reuse
// nor an extraction in the run. dropped are the contents dropped so far;
// drop drops one more.
func dropParentsOfRedone(contents, dropped map[string]warehouse.Extraction, attachments map[string][]warehouse.AttachmentRef, drop func(string)) {
	for again := true; again; {
		again = false
		for h, refs := range attachments {
			if _, ok := contents[h]; !ok {
				continue
			}
			for _, r := range refs {
				if _, redone := dropped[r.ChildHash]; redone {
					drop(h)
					again = true
					break
				}
			}
		}
	}
}

func knownPtr(known map[string]warehouse.Known, id string) *warehouse.Known {
	if k, ok := known[id]; ok {
		return &k
	}
	return nil
}

// bySize orders files biggest first: a long document started last would
// leave the other workers idle at the end of the run. Files with the
// same bytes keep their order (same size, stable sort).
func bySize(fs []PlannedFile) {
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Stat.Size > fs[j].Stat.Size })
}

// planned leaves URI empty: it is made from Abs when the file executes
// (fileOf). A first load's plan holds every file, and the URIs were 12
// MB of its 70 MB of live heap at 200k documents (heap profile, keys25).
func planned(f *entry, a Action) PlannedFile {
	return PlannedFile{Action: a, DocID: f.docID, Source: f.source, Rel: f.rel, Abs: f.abs, Stat: f.stat, Hash: f.hash, Err: f.err}
}

// fileURI is the file:// URI of an absolute path. Neither the listing
// nor the plan keeps one per file: only a file that executes needs it.
func fileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: abs}).String()
}

// uri is the file's file:// URI: the plan's when it has one (a shard plan
// an older docket wrote), else made from Abs ("" without a path).
func (pf *PlannedFile) uri() string {
	if pf.URI != "" || pf.Abs == "" {
		return pf.URI
	}
	return fileURI(pf.Abs)
}

// fileOf is the executor's working copy of a planned file.
func fileOf(pf PlannedFile) *file {
	f := &file{docID: pf.DocID, source: pf.Source, rel: pf.Rel, abs: pf.Abs, uri: pf.uri(), stat: pf.Stat, size: pf.Stat.Size, mtime: pf.Stat.MTime(),
		hash: pf.Hash, err: pf.Err, event: string(pf.Action), action: pf.Action}
	if pf.Action == ActVanished {
		f.gone = true
	}
	return f
}

// Restats are the stats to record for unchanged files the plan read.
func (p *Plan) Restats() []warehouse.StatUpdate {
	var out []warehouse.StatUpdate
	for _, f := range p.Files {
		if f.Restat {
			out = append(out, warehouse.StatUpdate{DocID: f.DocID, Stat: f.Stat})
		}
	}
	return out
}
