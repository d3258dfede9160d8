package loader

import (
	"path"
	"path/filepath"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// A LaTeX document's text is its main file's with the files its
// \input/\include commands name spliced in. Its extraction records the
// files it named (found or not, see document.ExtraLaTeXIncludes) and the
// sha256 of their bytes as read (document.ExtraLaTeXSources), and:
//
//   - its content is keyed by its main file's hash and that digest
//     (latexKey), not by the main file's bytes alone: two folders with the
//     same main.tex and different chapters shared one content, both
//     showing the text of whichever was extracted last;
//   - the plan decides about a LaTeX document its own bytes leave
//     unchanged once it has decided about every listed file: when one of
//     the files it names is new, changed, deleted or vanished in this
//     load, the document is changed and extracted again.
//
// The included files are listed files of the same source, so this costs
// no read beyond the listing's (a no-op load stays O(files)); an included
// file the listing skips (loader.ignore, a symbolic link under skip) is
// not watched.

// latexKey is the content key of a LaTeX document whose main file has the
// sha256 hash and whose included files have the digest
// (document.SourcesDigest); hash itself when it names none.
func latexKey(hash, digest string) string {
	if digest == "" || hash == "" {
		return hash
	}
	return hashString("latex\x00" + hash + "\x00" + digest)
}

// latexKnownKey is the key of the content a known LaTeX document (src,
// its key known) would have with a main file whose bytes hash to hash:
// known when that main file is the one it was extracted from, so the plan
// sees it unchanged; else hash.
func latexKnownKey(src warehouse.LaTeXSources, hash, known string) string {
	if src.Digest != "" && latexKey(hash, src.Digest) == known {
		return known
	}
	return hash
}

// includer is a known LaTeX document the plan found unchanged by its own
// bytes, with what its extraction recorded of its included files.
type includer struct {
	f   *entry
	k   warehouse.Known
	src warehouse.LaTeXSources
	row *warehouse.KnownContent // its document and content
}

// action is the document's action given the files that moved in this
// load (movedFiles): changed when one of its includes did; reextracted
// when it was extracted before its includes (or their bytes' digest)
// were recorded (once, so that the next loads can tell, and its content
// is keyed by them); else unchanged.
func (c includer) action(moved map[string]bool) Action {
	if c.src.Includes == nil || len(c.src.Includes) > 0 && c.src.Digest == "" {
		return ActReextract
	}
	dir := path.Dir(filepath.ToSlash(c.k.RelPath))
	for _, inc := range c.src.Includes {
		if moved[sourcePath(c.k.SourceName, path.Join(dir, inc))] {
			return ActChanged
		}
	}
	return ActUnchanged
}

// movedFiles are the files whose bytes this load finds new, changed or
// gone, by sourcePath.
func movedFiles(lists ...[]PlannedFile) map[string]bool {
	moved := map[string]bool{}
	for _, l := range lists {
		for _, f := range l {
			switch f.Action {
			case ActNew, ActChanged, ActDeleted, ActVanished:
				moved[sourcePath(f.Source, filepath.ToSlash(f.Rel))] = true
			}
		}
	}
	return moved
}

func sourcePath(source, rel string) string { return source + "\x00" + rel }

// rekeyLaTeX keys what a worker extracted from a LaTeX document of a
// source folder by its included files (latexKey) once the extraction says
// which it read: f's content was taken under its main file's hash (st),
// and when it named files, the files of this run waiting for that hash
// extract their own (their folders may hold other files), and f lands
// under its own key, reusing a content with that key when this run or an
// earlier one has it (the same main file and the same included bytes).
func (sh *shared) rekeyLaTeX(o *outcome, st *contentState) {
	f := o.f
	if o.res == nil || f.abs == "" || f.parent != "" || o.res.Type != detect.LaTeX {
		return
	}
	key := latexKey(f.hash, o.res.Metadata.Extra[document.ExtraLaTeXSources])
	if key == f.hash {
		return
	}
	sh.abandon(f.hash, st)
	f.hash = key
	sh.mu.Lock()
	same, inRun := sh.byHash[keyOf(key)]
	if !inRun {
		sh.byHash[keyOf(key)] = &contentState{done: settledDone, res: docFacts(o.res), flagged: o.flagged}
	}
	sh.mu.Unlock()
	if ex, known := sh.known(key); inRun || known && ex.Status == warehouse.StatusLanded {
		o.res, o.extracted = nil, false
		if inRun {
			<-same.done // a settled entry: another file's extraction, landed or on its way
			o.sameAs = same.res
		}
	}
}
