package loader

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// contentKey is a content's sha256 (the hex hash decoded): the run's
// table of contents extracted holds one per distinct content, so its key
// is 32 bytes, not a 64-character string.
type contentKey [32]byte

// keyOf is the key of a hex sha256; any other string (never made by
// docket) is keyed by its own sha256, still one key per string.
func keyOf(hash string) contentKey {
	var k contentKey
	if len(hash) == 2*len(k) {
		if _, err := hex.Decode(k[:], []byte(hash)); err == nil {
			return k
		}
	}
	return sha256.Sum256([]byte("\x00" + hash))
}

// settled is the done channel of every settled content.
var settledDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// settle ends the extraction of a content: files waiting for it go on,
// and the run keeps only what a later file with the same bytes lands
// (facts, error, attachments), in a compact entry: a first load of 200k
// small documents kept ~110 MB of entries (a channel and a Result each).
// Facts equal for many contents (no title, no warnings: most text files)
// are kept once.
func (sh *shared) settle(key contentKey, st *contentState) {
	close(st.done)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.byHash[key] != st || st.retry {
		return // abandoned: the files waiting extract their own bytes
	}
	sh.byHash[key] = &contentState{done: settledDone, res: sh.shareFacts(st.res), err: st.err, refs: st.refs}
}

// shareFacts returns the facts kept for r: one value for all the equal
// facts that carry no text of their own (title, author, dates, extra
// fields, warnings), r itself otherwise. Call with sh.mu held.
func (sh *shared) shareFacts(r *document.Result) *document.Result {
	if r == nil || len(r.Warnings) != 0 || len(r.Metadata.Extra) != 0 || len(r.Pages) != 0 ||
		r.Metadata.Title != "" || r.Metadata.Author != "" || r.Metadata.Created != "" || r.Metadata.Modified != "" {
		return r
	}
	k := strings.Join([]string{r.Type, r.MIME, r.ExtractorVersion, r.Metadata.Language, strconv.Itoa(r.Metadata.PageCount)}, "\x00")
	if f, ok := sh.facts[k]; ok {
		return f
	}
	sh.facts[k] = r
	return r
}
