package loader

import (
	"context"
	"errors"
	"sort"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// inWalkOrder orders a listing made elsewhere (a test's) as List makes
// it: by source, then in walk order. List's own is left as it is.
func inWalkOrder(l *Listing, p *project.Project) {
	rank := map[string]int{}
	for i, s := range p.Sources {
		rank[s.Name] = i + 1
	}
	less := func(a, b *entry) bool {
		if ra, rb := rank[a.source], rank[b.source]; ra != rb {
			return ra < rb
		}
		return walkCmp(a.rel, b.rel) < 0
	}
	if !sort.SliceIsSorted(l.files, func(i, j int) bool { return less(l.files[i], l.files[j]) }) {
		sort.SliceStable(l.files, func(i, j int) bool { return less(l.files[i], l.files[j]) })
	}
}

// walkStream is a walk of the sources read as it goes: the planner
// decides about the first files while the walk lists the next ones.
type walkStream struct {
	ch    chan walkItem
	next  *entry
	ended bool
	unr   map[string][]string
	skip  []warehouse.Skip
	done  chan []warehouse.Skip
}

type walkItem struct {
	f        *entry
	src, rel string // a folder that could not be read
}

func streamWalk(p *project.Project) *walkStream {
	w := &walkStream{ch: make(chan walkItem, planBatch), unr: map[string][]string{}, done: make(chan []warehouse.Skip, 1)}
	go func() {
		skips := listTo(p, nil, func(f *entry) { w.ch <- walkItem{f: f} }, func(src, rel string) { w.ch <- walkItem{src: src, rel: rel} })
		w.done <- skips
		close(w.ch)
	}()
	return w
}

func (w *walkStream) peek() *entry {
	for w.next == nil && !w.ended {
		it, ok := <-w.ch
		switch {
		case !ok:
			w.ended = true
			w.skip = <-w.done
		case it.f != nil:
			w.next = it.f
		default:
			w.unr[it.src] = append(w.unr[it.src], it.rel)
		}
	}
	return w.next
}

func (w *walkStream) pop()                            { w.next = nil }
func (w *walkStream) unreadable() map[string][]string { w.drain(); return w.unr }
func (w *walkStream) skips() []warehouse.Skip         { w.drain(); return w.skip }

// drain reads the walk to its end (a plan that stops early leaves no
// walk blocked).
func (w *walkStream) drain() {
	for w.peek() != nil {
		w.pop()
	}
}

// readState is the warehouse's state as PlanFrom reads it (a test makes
// it come out of walk order).
var readState = func(s *dbState) stateSource { return s }

// PlanFrom plans a load from the warehouse as it reads it: its documents
// source by source in batches, merged with a walk of the sources as it
// goes, so that a load's memory does not grow with the warehouse (see
// makePlan). onNew is called once, when the plan finds a new file that
// will go to a worker. A warehouse whose documents do not come in walk
// order is planned from whole maps (ReadState, MakePlan).
func PlanFrom(ctx context.Context, db *warehouse.DB, opts Options, onNew func()) (*Plan, error) {
	has, err := db.HasState(ctx)
	if err != nil {
		return nil, err
	}
	w := streamWalk(opts.Project)
	ds := &dbState{ctx: ctx, db: db, empty_: !has}
	plan, err := makePlan(readState(ds), w, opts, false, onNew)
	ds.close()
	w.drain()
	if errors.Is(err, errOrder) {
		st, err := ReadState(ctx, db, opts.ReOCR)
		if err != nil {
			return nil, err
		}
		return MakePlan(st, List(opts.Project, st.Known), opts)
	}
	return plan, err
}
