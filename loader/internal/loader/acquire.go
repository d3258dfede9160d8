package loader

import (
	"os"

	"github.com/docket-dev/docket/loader/internal/detect"
)

// staged is how the worker will read a file's bytes: in place (with the
// stat it must still have after the extraction, and the type detected
// while hashing), or from a private copy (snap, removed by the caller).
type staged struct {
	inPlace os.FileInfo
	placed  *detect.Info
	snap    string
}

// acquire reads, hashes or copies a file whose content this run may
// extract: a small new file is read once into f.data (hashed, detected and
// given to the worker from memory, see smallFile); a PDF or text file is
// hashed where it is and read there by the worker (see readInPlace);
// anything else is copied first, and the copy's hash is the one landed
// (see snapshot). ok false: o says why the file is not extracted.
func (sh *shared) acquire(o *outcome, f *file) (sf staged, ok bool) {
	p := sh.opts.Project
	if f.abs != "" && f.data == nil && f.hash == "" && f.size <= smallFile {
		data, s := readStable(f.abs, int64(p.Loader.MaxFileSize))
		if o.unreadable(s) {
			return sf, false
		}
		f.data, f.dataStat, f.hash, f.size = data, s.fi, s.hash, s.size
	}
	// In memory, read from the file with this stat (also when extracted
	// again after waiting for another file's extraction of its bytes):
	// the worker may read the file itself (see readInPlace).
	sf.inPlace = f.dataStat
	// A file whose content this run must extract is copied first: the
	// copy's hash is the one landed (see snapshot). A PDF or text file is
	// hashed where it is instead, and read there by the worker (see
	// readInPlace).
	if f.abs != "" && f.data == nil && f.size > 0 && !sh.settled(f.hash) {
		if s, info, ok := sh.hashInPlace(f); ok {
			sf.inPlace, sf.placed = s.fi, &info
			switch {
			case f.hash == "":
				f.hash, f.size = s.hash, s.size
			case s.hash != f.hash:
				f.changedDuringLoad = true
				f.hash, f.size = s.hash, s.size
			}
		}
	}
	if f.abs != "" && f.data == nil && f.size > 0 && sf.placed == nil && !sh.settled(f.hash) {
		s, err := sh.snapshot(f)
		if err != nil {
			o.fatal = err
			return sf, false
		}
		if o.unreadable(s) {
			return sf, false
		}
		sf.snap = s.path
		switch {
		case f.hash == "": // a new file, hashed by its copy
			f.hash, f.size = s.hash, s.size
		case s.hash != f.hash:
			f.changedDuringLoad = true
			f.hash, f.size = s.hash, s.size
		}
	}
	return sf, true
}

// detectType sets f.info from the bytes the worker will read.
func (sh *shared) detectType(f *file, sf staged) error {
	var err error
	switch {
	case f.data != nil:
		f.info, err = detect.DetectBytes(f.rel, f.data)
	case sf.placed != nil:
		f.info = *sf.placed
	case sf.snap != "":
		f.info, err = detect.Detect(sf.snap)
	case f.abs != "":
		f.info, err = detect.Detect(f.abs)
	default: // an attachment of reused content: its content is known
		ex, _ := sh.known(f.hash)
		f.info = detect.Info{Type: ex.Type, MIME: detect.MIMEOf(ex.Type)}
	}
	return err
}
