package loader

import (
	"path"
	"path/filepath"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// A LaTeX document's text is its main file's with the files its
// \input/\include commands name spliced in, but its hash is the main
// file's bytes alone: editing only an included file left the document
// unchanged. Its extraction records the files it named (found or not,
// see document.ExtraLaTeXIncludes), and the plan decides about a LaTeX
// document its own bytes leave unchanged once it has decided about every
// listed file: when one of those files is new, changed, deleted or
// vanished in this load, the document is changed and extracted again.
// The included files are listed files of the same source, so this
// costs no read beyond the listing's (a no-op load stays O(files)); an
// included file the listing skips (loader.ignore, a symbolic link under
// skip) is not watched.

// includer is a known LaTeX document the plan found unchanged by its own
// bytes, with the files it includes.
type includer struct {
	f        *entry
	k        warehouse.Known
	includes []string // nil: its extraction did not record them
}

// action is the document's action given the files that moved in this
// load (movedFiles): changed when one of its includes did; reextracted
// when it was extracted before includes were recorded (once, so that the
// next loads can tell); else unchanged.
func (c includer) action(moved map[string]bool) Action {
	if c.includes == nil {
		return ActReextract
	}
	dir := path.Dir(filepath.ToSlash(c.k.RelPath))
	for _, inc := range c.includes {
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
