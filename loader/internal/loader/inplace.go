package loader

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

// A PDF, HTML, CSV or plain-text file (see inPlaceTypes) is not copied for
// its worker: the worker reads the file itself and the load checks
// afterwards that the file was not written meanwhile (its stat while the
// load hashed it still holds, see sameFile), so the
// worker extracted exactly the bytes whose hash is landed, the guarantee
// the private copy gives (issue 17). The copy cost the main process a
// write of every byte of every file (a create, write and remove per
// small file): ~15 % of its CPU on the corpus's PDFs. A file that did change under its worker is extracted again from
// the bytes hashed (kept in memory, or a copy with the same hash), or
// else left to the next load.
//
// Only the types in inPlaceTypes: their extraction reads nothing but the
// file, and its name only for the extension; other extractors have not
// been checked. LaTeX too, and it must: its \input/\include files are
// read from the folder of the path the worker is given, and in the
// private folder there is nothing beside the copy (every \input of a
// loaded .tex was "not found"). The main file's bytes are still the ones
// hashed; the files it includes are read as they are then.
var inPlaceTypes = map[string]bool{
	detect.PDF: true, detect.HTML: true, detect.Text: true, detect.Markdown: true, detect.RST: true, detect.Org: true,
	detect.JSON: true, detect.NDJSON: true, detect.XML: true, detect.WebVTT: true, detect.SRT: true, detect.ICalendar: true,
	detect.CSV: true, detect.TSV: true, detect.LaTeX: true,
}

// readInPlace reports whether f's worker reads the file itself.
func readInPlace(f *file) bool {
	return f.abs != "" && inPlaceTypes[f.info.Type] && safeExt(f.rel) == filepath.Ext(f.abs)
}

// hashInPlace detects and hashes a file that is not in memory without
// copying it, when it is of a type read in place (see readInPlace); ok is false for any
// other file and whenever reading it in place met anything unusual (it
// changed, vanished, is too large or unreadable): the copying path then
// handles the file as it always did.
func (sh *shared) hashInPlace(f *file) (s snap, info detect.Info, ok bool) {
	if f.abs == "" || safeExt(f.rel) != filepath.Ext(f.abs) {
		return s, info, false
	}
	before, err := os.Stat(f.abs)
	if err != nil {
		return s, info, false
	}
	if info, err = detect.Detect(f.abs); err != nil || !inPlaceTypes[info.Type] {
		return s, info, false
	}
	s, ok = hashStable(f.abs, int64(sh.opts.Project.Loader.MaxFileSize))
	if !ok || !sameFile(before, s.fi) {
		return s, info, false
	}
	f.info = info
	return s, info, readInPlace(f)
}

// stillSame reports whether the file at path is still the one whose stat
// was fi (not written, not replaced).
func stillSame(path string, fi os.FileInfo) bool {
	now, err := os.Stat(path)
	return err == nil && sameFile(fi, now)
}

// restage gives the worker the bytes of f's hash again after the file
// changed under it: from memory (a small file), or a fresh copy when its
// hash is still f's. When the bytes are gone (the file now holds others,
// vanished, or keeps changing) the file is left to the next load and
// files of this run waiting for its content extract their own. "" when
// there is nothing to extract (o says why).
func (sh *shared) restage(o *outcome, st *contentState, f *file) string {
	if f.data != nil {
		return sh.stage(o, st, f)
	}
	s, err := sh.snapshot(f)
	if err != nil {
		o.fatal = err
		return ""
	}
	if s.path != "" && s.hash == f.hash {
		return s.path
	}
	os.Remove(s.path)
	sh.abandon(f.hash, st)
	o.unsettled = eventChanging
	return ""
}

// stage writes f's bytes (in memory) to a private file for the worker;
// "" when it cannot (o and st say why; a full disk ends the load).
func (sh *shared) stage(o *outcome, st *contentState, f *file) string {
	path, err := sh.tmp.writeFile(f.hash+safeExt(f.rel), f.data)
	if err == nil {
		return path
	}
	if de := diskError(path, err); errors.As(de, new(*errDiskFull)) {
		o.fatal = de
	}
	o.err = document.Errorf(document.KindInternal, "cannot stage the bytes for the worker: %v", err)
	st.err = o.err
	return ""
}

// abandon gives up the content of hash (its file changed under the
// worker): files of this run waiting for it extract their own bytes.
func (sh *shared) abandon(hash string, st *contentState) {
	sh.mu.Lock()
	if k := keyOf(hash); sh.byHash[k] == st {
		delete(sh.byHash, k)
	}
	sh.mu.Unlock()
	st.retry = true
}
