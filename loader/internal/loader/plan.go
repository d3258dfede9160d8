package loader

import (
	"context"
	"fmt"
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
}

// ReadState reads what a plan needs from the warehouse (read-only).
func ReadState(ctx context.Context, db *warehouse.DB, reocr bool) (*State, error) {
	st := &State{OCR: map[string]bool{}}
	var err error
	if st.Known, err = db.KnownDocuments(ctx); err != nil {
		return nil, fmt.Errorf("loader: read documents: %w", err)
	}
	if st.Extractions, err = db.Extractions(ctx); err != nil {
		return nil, fmt.Errorf("loader: read extractions: %w", err)
	}
	if st.Attachments, err = db.Attachments(ctx); err != nil {
		return nil, fmt.Errorf("loader: read attachments: %w", err)
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
	Rel  string   `json:"rel_path"`
	Abs  string   `json:"path"`
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
	// unchanged, kept and deleted ones.
	Files []PlannedFile `json:"files"`
	// Skips are entries of the sources that are not documents.
	Skips []warehouse.Skip `json:"skips,omitempty"`
	// Contents are the extractions the executor may reuse (a file whose
	// bytes were extracted before is not extracted again), without the
	// contents this plan extracts again (retries, re-OCR).
	Contents map[string]warehouse.Extraction `json:"contents"`
	// Attachments are the attachments of known contents; Children the
	// live attachments of known documents by parent doc_id.
	Attachments map[string][]warehouse.AttachmentRef `json:"attachments"`
	Children    map[string][]string                  `json:"children"`
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

// IDs returns the doc_ids of the files with the action.
func (p *Plan) IDs(a Action) []string {
	var out []string
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

// MakePlan decides every file's action from the warehouse's state and
// the listing. It reads the files it must hash to decide (known files;
// new ones too under opts.HashNew); Decide makes each decision.
func MakePlan(st *State, l *Listing, opts Options) *Plan {
	p := opts.Project
	pol := policyOf(opts)
	var old, fresh []*file
	for _, f := range l.files {
		if isNew(f, st.Known) {
			fresh = append(fresh, f)
		} else {
			old = append(old, f)
		}
	}
	// A known file whose stat vouches for it is not read (see StatClean);
	// the others are hashed.
	verify := opts.Verify || p.Loader.Verify == project.VerifyHash
	var toHash []*file
	read := map[*file]bool{}
	for _, f := range old {
		k := st.Known[f.docID]
		if !verify && f.err == nil && !f.gone && StatClean(k, f.stat) {
			f.hash = k.Hash
			continue
		}
		toHash = append(toHash, f)
		read[f] = true
	}
	if opts.HashNew {
		toHash = append(toHash, fresh...)
	}
	bytes := hashAll(toHash, p.Loader.Workers)

	contents := make(map[string]warehouse.Extraction, len(st.Extractions))
	for h, e := range st.Extractions {
		contents[h] = e
	}
	children := ChildrenOf(st.Known)
	listed := map[string]bool{}
	reextracted := map[string]bool{}
	var todo, rest []PlannedFile
	for _, f := range old {
		listed[f.docID] = true
		k := st.Known[f.docID]
		// Decisions see the contents earlier decisions dropped (in listing
		// order): a content extracted again is extracted once.
		ex, extracted := contents[f.hash]
		if !extracted && reextracted[f.hash] {
			// Another file with these bytes brought the outdated
			// content back: this one is re-extracted too, not repaired.
			ex, extracted = st.Extractions[f.hash]
		}
		facts := Facts{Known: &k, Listed: true, Gone: f.gone, Hash: f.hash, Content: &ex, Extracted: extracted, OCR: st.OCR[f.hash]}
		if !f.gone && k.Hash == f.hash {
			facts.Redo = DescendantsToRedo(f.docID, children, st.Known, contents, st.OCR, pol)
		}
		d := Decide(facts, pol)
		for _, h := range d.Forget {
			delete(contents, h)
		}
		if d.Action == ActReextract {
			reextracted[f.hash] = true
		}
		pf := planned(f, d.Action)
		pf.Restat = d.Action == ActUnchanged && read[f] && !StatClean(k, f.stat) && f.stat.TakenN != 0
		if d.Action.Executes() {
			todo = append(todo, pf)
		} else {
			rest = append(rest, pf)
		}
	}
	bySize(todo)
	// Contents made by an extractor version no longer current that no
	// known file brought back are not reused either: a new file with
	// those bytes is extracted afresh.
	for h, ex := range contents {
		if pol.Outdated(ex) {
			delete(contents, h)
		}
	}
	dropParentsOfRedone(contents, st)
	var news []PlannedFile
	for _, f := range fresh {
		listed[f.docID] = true
		news = append(news, planned(f, Decide(Facts{Known: knownPtr(st.Known, f.docID), Listed: true, Gone: f.gone}, pol).Action))
	}
	bySize(news)
	// Known top-level documents not listed now: deleted, except under
	// folders that could not be read (their files are not gone, just
	// unreadable now).
	var gone []PlannedFile
	for id, k := range st.Known {
		if listed[id] || k.ParentDocID != "" || k.Status == warehouse.StatusDeleted {
			continue
		}
		k := k
		a := Decide(Facts{Known: &k, UnderUnreadable: under(l.unreadable[k.SourceName], k.RelPath)}, pol).Action
		gone = append(gone, PlannedFile{Action: a, DocID: id, Source: k.SourceName, Rel: k.RelPath, Hash: k.Hash})
	}
	sort.Slice(gone, func(i, j int) bool { return gone[i].DocID < gone[j].DocID })
	files := append(append(append(todo, news...), rest...), gone...)
	return &Plan{Files: files, Skips: l.Skips, Contents: contents, Attachments: st.Attachments, Children: children, BytesHashed: bytes}
}

// dropParentsOfRedone drops from contents the known contents with an
// attachment (at any depth) whose content this plan extracts again: a
// new file with those bytes is extracted afresh, its attachments coming
// from that extraction, as a known file with such an attachment is (see
// DescendantsToRedo, whose contents Decide forgets with the parent's).
// Reused as it is, its attachment would find neither a content to reuse
// nor an extraction in the run.
func dropParentsOfRedone(contents map[string]warehouse.Extraction, st *State) {
	for dropped := true; dropped; {
		dropped = false
		for h, refs := range st.Attachments {
			if _, ok := contents[h]; !ok {
				continue
			}
			for _, r := range refs {
				_, had := st.Extractions[r.ChildHash]
				if _, kept := contents[r.ChildHash]; had && !kept {
					delete(contents, h)
					dropped = true
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

func planned(f *file, a Action) PlannedFile {
	return PlannedFile{Action: a, DocID: f.docID, Source: f.source, Rel: f.rel, Abs: f.abs, URI: f.uri, Stat: f.stat, Hash: f.hash, Err: f.err}
}

// fileOf is the executor's working copy of a planned file.
func fileOf(pf PlannedFile) *file {
	f := &file{docID: pf.DocID, source: pf.Source, rel: pf.Rel, abs: pf.Abs, uri: pf.URI, stat: pf.Stat, size: pf.Stat.Size, mtime: pf.Stat.MTime(),
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
