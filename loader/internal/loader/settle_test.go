package loader

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestSettleKeepsCompactEntries: once a content is extracted, the run
// keeps a compact entry for files with the same bytes (a done channel
// shared by all, the facts of contents without text of their own shared
// too), so the table grows by little per content; an abandoned content
// is not brought back.
func TestSettleKeepsCompactEntries(t *testing.T) {
	sh := &shared{byHash: map[contentKey]*contentState{}, facts: map[string]*document.Result{}}
	start := func(hash string, r *document.Result) (contentKey, *contentState) {
		k := keyOf(hash)
		st := &contentState{done: make(chan struct{}), res: r}
		sh.byHash[k] = st
		return k, st
	}
	plain := func() *document.Result {
		return &document.Result{Type: "text", MIME: "text/plain", ExtractorVersion: "v1", Metadata: document.Metadata{PageCount: 1}}
	}
	ka, a := start(hashString("a"), plain())
	kb, b := start(hashString("b"), plain())
	kt, titled := start(hashString("t"), &document.Result{Type: "html", Metadata: document.Metadata{Title: "T", PageCount: 1}})
	kx, gone := start(hashString("x"), plain())
	sh.abandon(hashString("x"), gone)
	for _, c := range []struct {
		k  contentKey
		st *contentState
	}{{ka, a}, {kb, b}, {kt, titled}, {kx, gone}} {
		sh.settle(c.k, c.st)
		select {
		case <-c.st.done:
		default:
			t.Fatal("a settled content's waiters are not released")
		}
	}
	ea, eb, et := sh.byHash[ka], sh.byHash[kb], sh.byHash[kt]
	if ea == a || ea.done != settledDone || eb.done != settledDone {
		t.Errorf("settled entries keep their own channel: %p %p", ea.done, eb.done)
	}
	if ea.res != eb.res || ea.res.Metadata.PageCount != 1 {
		t.Errorf("equal facts kept twice (%p, %p)", ea.res, eb.res)
	}
	if et.res == ea.res || et.res.Metadata.Title != "T" {
		t.Errorf("a content with a title shares another's facts: %+v", et.res)
	}
	if _, ok := sh.byHash[kx]; ok {
		t.Error("an abandoned content came back in the table")
	}
	if keyOf(hashString("a")) == keyOf(hashString("b")) || keyOf("not hex") == keyOf("not hez") {
		t.Error("two hashes share a key")
	}
}
