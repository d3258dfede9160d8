package loader

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// The planner's two state sources: the warehouse read as the plan goes
// (dbState, a load's), and a State held in memory (memState: tests, shard
// plans, a new warehouse's first load).

// memState is a State held in memory as a stateSource.
type memState struct {
	st     *State
	order  map[string][]string // top-level doc_ids by source, in WalkKey order
	other  []string            // of sources not in the project, by doc_id
	odd_   map[string]warehouse.KnownContent
	empty_ bool
}

func newMemState(st *State, p *project.Project) *memState {
	m := &memState{st: st, order: map[string][]string{}, odd_: map[string]warehouse.KnownContent{},
		empty_: len(st.Known) == 0 && len(st.Extractions) == 0}
	named := map[string]bool{}
	for _, s := range p.Sources {
		named[s.Name] = true
	}
	for id, k := range st.Known {
		if k.ParentDocID != "" {
			continue
		}
		switch {
		case oddPath(k.RelPath) || DocID(k.SourceName, k.RelPath) != id:
			m.odd_[id] = m.row(id)
		case named[k.SourceName]:
			m.order[k.SourceName] = append(m.order[k.SourceName], id)
		default:
			m.other = append(m.other, id)
		}
	}
	for _, ids := range m.order {
		sort.Slice(ids, func(i, j int) bool {
			return walkCmp(st.Known[ids[i]].RelPath, st.Known[ids[j]].RelPath) < 0
		})
	}
	sort.Strings(m.other)
	return m
}

func (m *memState) row(id string) warehouse.KnownContent {
	k := m.st.Known[id]
	k.DocID = id
	ex, ok := m.st.Extractions[k.Hash]
	return warehouse.KnownContent{Known: k, Content: ex, Extracted: ok}
}

func (m *memState) docs(src, after string, n int) ([]warehouse.KnownContent, error) {
	ids := m.order[src]
	i := sort.Search(len(ids), func(i int) bool { return after == "" || warehouse.WalkKey(m.st.Known[ids[i]].RelPath) > after })
	return m.rows(ids[i:min(len(ids), i+n)]), nil
}

func (m *memState) others(_ []string, after string, n int) ([]warehouse.KnownContent, error) {
	i := sort.SearchStrings(m.other, after)
	for i < len(m.other) && m.other[i] <= after {
		i++
	}
	return m.rows(m.other[i:min(len(m.other), i+n)]), nil
}

func (m *memState) rows(ids []string) []warehouse.KnownContent {
	out := make([]warehouse.KnownContent, len(ids))
	for i, id := range ids {
		out[i] = m.row(id)
	}
	return out
}

func (m *memState) odd() (map[string]warehouse.KnownContent, error) { return m.odd_, nil }

func (m *memState) small(bool) (*smallState, error) {
	sm := &smallState{kids: map[string]warehouse.Known{}, family: map[string]warehouse.Extraction{}, attachments: m.st.Attachments,
		includes: m.st.Includes, ocr: m.st.OCR}
	for id, k := range m.st.Known {
		if k.ParentDocID != "" && k.Status != warehouse.StatusDeleted {
			sm.kids[id] = k
			if ex, ok := m.st.Extractions[k.Hash]; ok {
				sm.family[k.Hash] = ex
			}
		}
	}
	for h, refs := range m.st.Attachments {
		for _, hh := range append([]string{h}, childHashes(refs)...) {
			if ex, ok := m.st.Extractions[hh]; ok {
				sm.family[hh] = ex
			}
		}
	}
	return sm, nil
}

func childHashes(refs []warehouse.AttachmentRef) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.ChildHash
	}
	return out
}

func (m *memState) outdated(pol Policy) (map[string]warehouse.Extraction, error) {
	out := map[string]warehouse.Extraction{}
	for h, ex := range m.st.Extractions {
		if pol.Outdated(ex) {
			out[h] = ex
		}
	}
	return out, nil
}

func (m *memState) forget(h string)                                   { delete(m.st.Extractions, h) }
func (m *memState) contents() map[string]warehouse.Extraction         { return m.st.Extractions }
func (m *memState) lookup() func(string) (warehouse.Extraction, bool) { return nil }
func (m *memState) empty() bool                                       { return m.empty_ }

// dbState reads the warehouse as the planner goes.
type dbState struct {
	ctx    context.Context
	db     *warehouse.DB
	empty_ bool
	// pages reads the source src in walk order, numbered once (see
	// warehouse.SourcePages); each call of docs continues it.
	pages *warehouse.SourcePages
	src   string
}

// docs continues the source's pages (the planner asks for them in order:
// after is the last path it was given).
func (d *dbState) docs(src, after string, n int) ([]warehouse.KnownContent, error) {
	if d.empty_ {
		return nil, nil
	}
	if after == "" || d.pages == nil || d.src != src {
		d.close()
		p, err := d.db.SourcePages(d.ctx, src)
		if err != nil {
			return nil, err
		}
		d.pages, d.src = p, src
	}
	rows, err := d.pages.Next(d.ctx, n)
	if err != nil || len(rows) < n {
		d.close()
	}
	if errors.Is(err, warehouse.ErrNumbering) {
		err = fmt.Errorf("%w (%v)", errOrder, err)
	}
	return rows, err
}

// close ends the pages of a source being read.
func (d *dbState) close() {
	if d.pages != nil {
		d.pages.Close()
		d.pages = nil
	}
}

func (d *dbState) others(names []string, after string, n int) ([]warehouse.KnownContent, error) {
	return d.db.OtherDocuments(d.ctx, names, after, n)
}

func (d *dbState) odd() (map[string]warehouse.KnownContent, error) {
	rows, err := d.db.OddDocuments(d.ctx)
	out := make(map[string]warehouse.KnownContent, len(rows))
	for _, r := range rows {
		out[r.DocID] = r
	}
	return out, err
}

func (d *dbState) small(reocr bool) (*smallState, error) {
	sm := &smallState{ocr: map[string]bool{}}
	var err error
	if sm.kids, err = d.db.AttachedDocuments(d.ctx); err != nil {
		return nil, err
	}
	if sm.family, err = d.db.FamilyExtractions(d.ctx); err != nil {
		return nil, err
	}
	if sm.attachments, err = d.db.Attachments(d.ctx); err != nil {
		return nil, err
	}
	if sm.includes, err = d.db.LaTeXIncludes(d.ctx); err != nil {
		return nil, err
	}
	if reocr {
		if sm.ocr, err = d.db.OCRContents(d.ctx); err != nil {
			return nil, err
		}
	}
	return sm, nil
}

func (d *dbState) outdated(pol Policy) (map[string]warehouse.Extraction, error) {
	vs, err := d.db.ExtractorVersions(d.ctx)
	if err != nil {
		return nil, err
	}
	var old []string
	for _, v := range vs {
		if pol.Outdated(warehouse.Extraction{Status: warehouse.StatusLanded, Version: v}) {
			old = append(old, v)
		}
	}
	return d.db.LandedWithVersions(d.ctx, old)
}

func (d *dbState) forget(string) {}
func (d *dbState) contents() map[string]warehouse.Extraction {
	return map[string]warehouse.Extraction{}
}
func (d *dbState) empty() bool { return d.empty_ }

// lookup finds a content in the warehouse (a failed query finds none:
// the file is extracted again rather than the load stopped). A content
// the warehouse's content filter rules out (almost every one a load
// extracts) is not looked up: staging.extractions has no key since schema
// version 11, and each look-up scans its hashes. The filter is read at
// the first look-up (it may hold contents this run landed since: the
// executor does not ask for those); when it cannot be read, every content
// is looked up.
func (d *dbState) lookup() func(string) (warehouse.Extraction, bool) {
	if d.empty_ {
		return nil
	}
	ctx, db := context.WithoutCancel(d.ctx), d.db
	var once sync.Once
	var filter *warehouse.ContentFilter
	return func(h string) (warehouse.Extraction, bool) {
		once.Do(func() { filter, _ = db.ContentFilter(ctx) })
		if filter != nil && !filter.MayHave(h) {
			return warehouse.Extraction{}, false
		}
		ex, ok, err := db.ExtractionOf(ctx, h)
		return ex, ok && err == nil
	}
}
