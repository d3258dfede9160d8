package loader

import "github.com/docket-dev/docket/loader/internal/warehouse"

// Family is a top-level document's landings (the document first, then
// its attachments, recursively) and the attachments it no longer has
// (to tombstone with it): the unit a kill never splits.
type Family struct {
	Landings []warehouse.Landing
	Gone     []string
	Pages    int // pages extracted for the family in this run
	// Tail: every file had been handed to a worker when this family's
	// was done, so its worker has nothing left to extract and a core is
	// free: a Writer lands it without waiting for the batch to fill
	// (see Writer.Add).
	Tail bool
	// Left: the files not yet handed to a worker when this family was
	// done (a Writer compares it with its Limits.Docs, see Writer.Add);
	// 0 also once every file was (Tail then says so) and for families
	// not from Execute. More: another family was done and waiting when
	// this one was handed on (false for families not from Execute).
	Left int
	More bool
}

// workDone is a file's family as its worker finished it; tail: every file
// had been handed out by then (see Family.Tail); left: the files not yet
// handed out then (see Family.Left).
type workDone struct {
	fam  []*outcome
	tail bool
	left int
}

// goneChildren are attachments a changed parent had before and no longer has.
func goneChildren(fam []*outcome, sh *shared) []string {
	now := map[string]bool{}
	for _, o := range fam {
		now[o.f.docID] = true
	}
	var gone []string
	for _, o := range fam {
		for _, c := range sh.children[o.f.docID] {
			if !now[c] {
				gone = append(gone, c)
			}
		}
	}
	return gone
}

func flatten(o *outcome) []*outcome {
	out := []*outcome{o}
	for _, c := range o.children {
		out = append(out, flatten(c)...)
	}
	return out
}
