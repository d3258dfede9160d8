package loader

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestSettleKeepsCompactEntries: once a content is extracted, the run
// keeps an entry for files with the same bytes without a channel of its
// own, with the facts only until the content's family went to the sink;
// then a content landed without error or attachments is the one shared
// plain entry, an error or attachments are kept (a later file needs
// them), and an abandoned content is not brought back.
func TestSettleKeepsCompactEntries(t *testing.T) {
	sh := &shared{byHash: map[contentKey]*contentState{}}
	type content struct {
		k  contentKey
		st *contentState
		o  *outcome
	}
	start := func(text string, r *document.Result, e *document.Error, refs int) content {
		h := hashString(text)
		k := keyOf(h)
		st := &contentState{done: make(chan struct{}), res: r, err: e}
		for i := 0; i < refs; i++ {
			st.refs = append(st.refs, warehouse.AttachmentRef{Seq: i, Name: "a", ChildHash: hashString("child")})
		}
		sh.byHash[k] = st
		return content{k, st, &outcome{f: &file{hash: h}, extracted: true}}
	}
	titled := start("t", &document.Result{Type: "html", Metadata: document.Metadata{Title: "T", PageCount: 1}}, nil, 0)
	plain := start("a", &document.Result{Type: "text", Metadata: document.Metadata{PageCount: 1}}, nil, 0)
	failed := start("f", nil, &document.Error{Kind: document.KindCrash, Msg: "boom"}, 0)
	zip := start("z", &document.Result{Type: "zip"}, nil, 2)
	gone := start("x", &document.Result{Type: "text"}, nil, 0)
	sh.abandon(hashString("x"), gone.st)
	all := []content{titled, plain, failed, zip, gone}
	for _, c := range all {
		sh.settle(c.k, c.st)
		select {
		case <-c.st.done:
		default:
			t.Fatal("a settled content's waiters are not released")
		}
	}
	if e := sh.byHash[titled.k]; e == titled.st || e.done != settledDone || e.res == nil || e.res.Metadata.Title != "T" {
		t.Errorf("before its family went to the sink, a settled content keeps its facts in a compact entry: %+v", e)
	}
	for _, c := range all {
		sh.sunk(c.o)
	}
	if sh.byHash[titled.k] != settledPlain || sh.byHash[plain.k] != settledPlain {
		t.Errorf("contents landed without error or attachments keep more than the shared entry: %+v %+v", sh.byHash[titled.k], sh.byHash[plain.k])
	}
	if e := sh.byHash[failed.k]; e.res != nil || e.err == nil || e.err.Msg != "boom" || e.done != settledDone {
		t.Errorf("a failed content's entry: %+v", e)
	}
	if e := sh.byHash[zip.k]; e.res != nil || len(e.refs) != 2 || e == settledPlain {
		t.Errorf("a content with attachments keeps them (and only them): %+v", e)
	}
	if _, ok := sh.byHash[gone.k]; ok {
		t.Error("an abandoned content came back in the table")
	}
	if keyOf(hashString("a")) == keyOf(hashString("b")) || keyOf("not hex") == keyOf("not hez") {
		t.Error("two hashes share a key")
	}
}
