package loader

import (
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/version"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// Action is what a load does with one file. Its value is the event
// ops.document_events records for the file (vanished files record
// vanished_during_load).
type Action string

// The actions a plan decides.
const (
	ActNew       Action = "new"         // never seen, or seen and deleted before: extract (or reuse a known content)
	ActChanged   Action = "changed"     // its bytes changed since the last load
	ActUnchanged Action = "unchanged"   // nothing to do
	ActRetry     Action = "retried"     // quarantined before and retried now (or an attachment of it needs work)
	ActReOCR     Action = "reocr"       // --reocr: its content has OCR'd pages
	ActReextract Action = "reextracted" // its content was made by an extractor version no longer current
	ActRepair    Action = "repaired"    // landed, but its content is missing from staging
	ActDeleted   Action = "deleted"     // known, gone from a fully listed source: tombstone
	ActVanished  Action = "vanished"    // listed, then gone before it was read: an event, the next load decides
	ActKept      Action = "kept"        // known, not listed because its folder could not be read: left as it is
)

// Executes reports whether the action sends the file to the executor
// (extraction, reuse of a known content or an event). Unchanged and
// deleted files are settled by the plan itself.
func (a Action) Executes() bool {
	return a != ActUnchanged && a != ActDeleted && a != ActKept
}

// Policy is what a decision depends on besides the facts of the file:
// the command line's flags and the project's retry limits.
type Policy struct {
	RetryQuarantined bool // --retry-quarantined
	ReOCR            bool // --reocr
	MaxAttempts      int  // loader.max_attempts
	// Timeout is loader.timeout: a content that timed out is retried
	// automatically only under a longer one.
	Timeout time.Duration
	// Current says whether a recorded extractor version is a current one
	// (version.Current); nil: every version is.
	Current func(version string) bool
	// Routed says whether a detected type has an extractor now
	// (version.Routed); nil: no type quarantined unsupported is retried.
	Routed func(typ string) bool
}

func policyOf(opts Options) Policy {
	p := opts.Project
	return Policy{RetryQuarantined: opts.RetryQuarantined, ReOCR: opts.ReOCR, MaxAttempts: p.Loader.MaxAttempts,
		Timeout: p.Loader.Timeout.Duration, Current: version.Current, Routed: version.Routed}
}

// Outdated reports whether ex is a landed content made by an extractor
// version that is no longer current: the next load extracts it again.
// Quarantined contents are left to the retry rules (Retryable).
func (pol Policy) Outdated(ex warehouse.Extraction) bool {
	return pol.Current != nil && ex.Status == warehouse.StatusLanded && !pol.Current(ex.Version)
}

// Facts are what the load knows of one file when it decides about it.
type Facts struct {
	Known   *warehouse.Known // the warehouse's row; nil when never seen
	Listed  bool             // the listing found the file
	Gone    bool             // listed, then vanished before it was read
	Hash    string           // the bytes' hash now (known files only; "" for new ones, not needed)
	Content *warehouse.Extraction
	// Extracted: the warehouse has an extraction of Hash.
	Extracted bool
	// OCR: Hash's content has OCR'd (or OCR-pending) pages.
	OCR bool
	// Redo are contents of the file's attachments (recursively) this load
	// must extract again (see DescendantsToRedo).
	Redo []string
	// UnderUnreadable: the file lies in a folder the listing could not
	// read (not listed, but not gone either).
	UnderUnreadable bool
}

// Decision is the action for one file and the contents the load must
// extract again for it (dropped from the extraction cache).
type Decision struct {
	Action Action
	Forget []string
}

// Decide decides the action for one file. It is pure: everything it
// depends on is in its arguments.
func Decide(f Facts, pol Policy) Decision {
	k := f.Known
	if !f.Listed {
		if k != nil && k.ParentDocID == "" && k.Status != warehouse.StatusDeleted && !f.UnderUnreadable {
			return Decision{Action: ActDeleted}
		}
		// Unreadable now, an attachment (its parent decides) or a tombstone.
		return Decision{Action: ActKept}
	}
	if k == nil || k.Status == warehouse.StatusDeleted {
		if f.Gone {
			return Decision{Action: ActVanished}
		}
		return Decision{Action: ActNew} // new whatever its bytes
	}
	quarantinedContent := f.Extracted && f.Content != nil && f.Content.Status == warehouse.StatusQuarantined
	var content warehouse.Extraction
	if f.Content != nil {
		content = *f.Content
	}
	switch {
	case f.Gone:
		// Vanished between the listing and hashing: an event says so,
		// the row stays as it is and the next load decides.
		return Decision{Action: ActVanished}
	case k.Hash != f.Hash:
		return Decision{Action: ActChanged}
	case pol.RetryQuarantined && k.Status == warehouse.StatusQuarantined:
		if quarantinedContent {
			return Decision{Action: ActRetry, Forget: []string{f.Hash}}
		}
		return Decision{Action: ActRetry}
	case pol.ReOCR && f.OCR:
		return Decision{Action: ActReOCR, Forget: []string{f.Hash}}
	case k.Status == warehouse.StatusQuarantined && Retryable(k.ErrorKind, content, pol):
		// A crash may not happen again.
		if quarantinedContent {
			return Decision{Action: ActRetry, Forget: []string{f.Hash}}
		}
		return Decision{Action: ActRetry}
	case k.Status == warehouse.StatusLanded && !f.Extracted:
		return Decision{Action: ActRepair}
	case k.Status == warehouse.StatusLanded && f.Extracted && pol.Outdated(content):
		return Decision{Action: ActReextract, Forget: []string{f.Hash}}
	case len(f.Redo) > 0:
		// An attachment that needs work brings its parent back: the
		// attachment's bytes only exist inside the parent.
		return Decision{Action: ActRetry, Forget: append(append([]string{}, f.Redo...), f.Hash)}
	}
	return Decision{Action: ActUnchanged}
}

// DescendantsToRedo lists the content hashes of a document's attachments
// (recursively) that this load must extract again: crashed or timed out,
// quarantined under --retry-quarantined, OCR'd under --reocr, landed
// without staging rows, or made by an extractor version no longer current.
func DescendantsToRedo(id string, children map[string][]string, known map[string]warehouse.Known,
	extractions map[string]warehouse.Extraction, ocr map[string]bool, pol Policy) []string {
	var out []string
	for _, c := range children[id] {
		k := known[c]
		ex, extracted := extractions[k.Hash]
		if k.Hash != "" && ((k.Status == warehouse.StatusQuarantined && (Retryable(k.ErrorKind, ex, pol) || pol.RetryQuarantined)) ||
			(pol.ReOCR && ocr[k.Hash]) || (k.Status == warehouse.StatusLanded && (!extracted || pol.Outdated(ex)))) {
			out = append(out, k.Hash)
		}
		out = append(out, DescendantsToRedo(c, children, known, extractions, ocr, pol)...)
	}
	return out
}

// Retryable says whether the next load extracts a quarantined content
// again without being asked (issue 17: hostile files cost once). A file
// that could not be read is retried every load (it costs no worker); a
// crash or an internal error up to loader.max_attempts extractions in
// all; a time-out only when loader.timeout is now longer than the
// extraction that was stopped (the same limit would stop it again: a
// bomb timing out cost a full time-out on every load); a content
// quarantined unsupported_type whose detected type has an extractor now
// (an ODP an older docket had none for) up to loader.max_attempts
// extractions in all (an extractor that itself says unsupported, the
// office reader given a legacy OLE2 file, is not asked for ever).
// Anything else waits for --retry-quarantined.
func Retryable(kind string, ex warehouse.Extraction, pol Policy) bool {
	switch kind {
	case document.KindUnreadable:
		return true
	case document.KindCrash, document.KindInternal:
		return ex.Attempts < pol.MaxAttempts
	case document.KindTimeout:
		return ex.Duration > 0 && pol.Timeout > ex.Duration+ex.Duration/10 && ex.Attempts < pol.MaxAttempts
	case document.KindUnsupported:
		return pol.Routed != nil && pol.Routed(ex.Type) && ex.Attempts < pol.MaxAttempts
	}
	return false
}

// ChildrenOf indexes the live attachments of known documents by parent,
// and gives the hash each of them has (see ChildEvent).
func ChildrenOf(known map[string]warehouse.Known) (children map[string][]string, hashes map[string]string) {
	children, hashes = map[string][]string{}, map[string]string{}
	for id, k := range known {
		if k.ParentDocID != "" && k.Status != warehouse.StatusDeleted {
			children[k.ParentDocID] = append(children[k.ParentDocID], id)
			hashes[id] = k.Hash
		}
	}
	return children, hashes
}

// ChildEvent is the event of an attachment (an e-mail's attachment, an
// archive's member) its parent's extraction lands, by the rules of a
// listed file: new when the parent had no live child of its doc_id
// (parent, position and name) before, changed when the child's bytes
// differ from the ones it had; with the same bytes, the parent's event
// when that is one of extracting the same bytes again (reextracted,
// retried, reocr, repaired), else unchanged (a changed archive's members
// that did not change). Re-extracting an archive logged every member as
// new.
func ChildEvent(parentEvent string, was string, known bool, hash string) Action {
	switch {
	case !known:
		return ActNew
	case was != hash:
		return ActChanged
	}
	switch a := Action(parentEvent); a {
	case ActReextract, ActRetry, ActReOCR, ActRepair:
		return a
	}
	return ActUnchanged
}

// RacyWindow is how recent a recorded modification time may be before
// the stat no longer vouches for the bytes: a file modified less than
// this before the listing that recorded it may be modified again within
// the same timestamp tick (file systems keep 1 s or 2 s mtimes; Linux
// stamps files with a clock that lags by up to a tick), keeping size,
// mtime and ctime. Such a file is read again by the next load (git's
// "racily clean" entries).
const RacyWindow = 2 * time.Second

// StatClean reports whether a known file is unchanged without reading it:
// the warehouse has its hash and the stat the load that read it took,
// size, mtime, inode and ctime all match the stat now, and the recorded
// mtime was at least RacyWindow older than that load's listing. A
// rename onto the file changes its inode; a write changes its ctime even
// when the mtime is set back; a change of mode or owner (ctime) costs a
// read that finds the same bytes.
func StatClean(k warehouse.Known, now FileStat) bool {
	r := k.Stat
	if k.Hash == "" || r.TakenN == 0 || now.TakenN == 0 {
		return false
	}
	if r.Size != now.Size || r.MTimeN != now.MTimeN || r.Inode != now.Inode || r.CTimeN != now.CTimeN {
		return false
	}
	return r.MTimeN < r.TakenN-int64(RacyWindow)
}

// goesToWorker reports whether a new file will surely go to a worker
// (not empty, not over the size limit, readable).
func goesToWorker(f *entry, p *project.Project) bool {
	return f.err == nil && !f.gone && f.stat.Size > 0 && f.stat.Size <= int64(p.Loader.MaxFileSize)
}
