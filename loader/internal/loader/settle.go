package loader

import (
	"crypto/sha256"
	"encoding/hex"
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

// settledDone is the done channel of every settled content.
var settledDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// settledPlain is the entry of every content landed without error or
// attachments once its family went to the sink: all a later file with
// the same bytes needs is to know it was extracted.
var settledPlain = &contentState{done: settledDone}

// settledFlagged is settledPlain for a content with a review reason.
var settledFlagged = &contentState{done: settledDone, flagged: true}

// settle ends the extraction of a content: files waiting for it go on.
// Until the content's family goes to the sink (see sunk), the run keeps
// what a later file with the same bytes lands (facts, error,
// attachments), in an entry without a channel of its own.
func (sh *shared) settle(key contentKey, st *contentState) {
	close(st.done)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.byHash[key] != st || st.retry {
		return // abandoned: the files waiting extract their own bytes
	}
	sh.byHash[key] = &contentState{done: settledDone, res: st.res, err: st.err, refs: st.refs, flagged: st.flagged}
}

// sunk is called once o's family went to the sink: a later file with
// the same bytes lands as a reuse of o's content, whose staging row is
// landed in the same batch or an earlier one (the sink lands in order),
// and takes its facts (title, warnings, page count) from there, as a
// file whose content an earlier load extracted does. The run keeps only
// the content's error and attachments: a first load of 200k small
// documents kept ~550 bytes per titled document (its facts) to the end.
func (sh *shared) sunk(o *outcome) {
	if !o.extracted || o.f.hash == "" {
		return
	}
	key := keyOf(o.f.hash)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	st, ok := sh.byHash[key]
	if !ok || st.done != settledDone || st == settledPlain || st == settledFlagged {
		return // being extracted again, or abandoned
	}
	if st.err == nil && len(st.refs) == 0 {
		sh.byHash[key] = settledPlain
		if st.flagged {
			sh.byHash[key] = settledFlagged
		}
		return
	}
	sh.byHash[key] = &contentState{done: settledDone, err: st.err, refs: st.refs, flagged: st.flagged}
}
