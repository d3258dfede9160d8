package loader

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// pathMax is Linux's PATH_MAX: a longer path cannot be opened by name.
const pathMax = 4096

// Kinds of ops.load_skips rows.
const (
	SkipSymlink     = "symlink"
	SkipSpecial     = "special_file"
	SkipPathTooLong = "path_too_long"
	SkipUnreadable  = "unreadable_folder"
	SkipHidden      = "hidden_folder"
	SkipExcluded    = "excluded"
	SkipProjectFile = "project_file"
)

// entry is one file of a listing: what a plan needs of it. A listing of
// 200k files held a whole file (~384 bytes, the executor's working copy)
// for each.
type entry struct {
	docID, source, rel, abs string
	stat                    FileStat
	hash                    string          // set by hashAll (or the known hash of a file not read)
	err                     *document.Error // it could not be stat'ed or read
	gone                    bool            // vanished since the listing
}

// Listing is what the walk of the sources found.
type Listing struct {
	files []*entry
	// unreadable are the folders (relative to their source, "." for the
	// root) that could not be read: their known files are not deleted.
	unreadable map[string][]string
	// Skips are the entries that are not documents, with why.
	Skips []warehouse.Skip
}

// List lists every regular file of every source (not hashed yet: see
// hashAll); every other entry the walk meets is recorded as a skip with
// why, and the folders that could not be read are listed. known is the
// warehouse's documents (nil: none): a known file's doc_id is the
// state's string, and a file's relative path is the tail of its path,
// so that a listing holds each path and doc_id once.
func List(p *project.Project, known map[string]warehouse.Known) *Listing {
	out := &Listing{unreadable: map[string][]string{}}
	out.Skips = listTo(p, known, func(f *entry) { out.files = append(out.files, f) },
		func(src, rel string) { out.unreadable[src] = append(out.unreadable[src], rel) })
	return out
}

// listTo walks the sources as List does, handing each file to file and
// each folder it could not read to unreadable as it meets them (in walk
// order: see warehouse.WalkKey), and returns the skips.
func listTo(p *project.Project, known map[string]warehouse.Known, file func(*entry), unreadable func(src, rel string)) []warehouse.Skip {
	out := &Listing{}
	taken := time.Now().UnixNano()
	own := projectFiles(p)
	for _, src := range p.Sources {
		root := src.Path
		realRoot, _ := filepath.EvalSymlinks(root)
		skip := func(rel, kind, format string, a ...any) {
			rel = filepath.ToSlash(rel)
			out.Skips = append(out.Skips, warehouse.Skip{SourceName: src.Name, RelPath: EscapePath(rel), RelPathBytes: rawBytes(rel),
				Kind: kind, Reason: fmt.Sprintf(format, a...)})
		}
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			rel, _ := filepath.Rel(root, path)
			if err != nil {
				if d == nil || d.IsDir() {
					unreadable(src.Name, filepath.ToSlash(rel))
					if errors.Is(err, syscall.ENAMETOOLONG) {
						skip(rel, SkipPathTooLong, "the folder's path is longer than PATH_MAX (%d bytes)", pathMax)
					} else {
						skip(rel, SkipUnreadable, "the folder could not be read: %v", unwrapPath(err))
					}
					if d != nil && path != root {
						return fs.SkipDir
					}
					return nil
				}
				skip(rel, SkipUnreadable, "the entry could not be read: %v", unwrapPath(err))
				return nil
			}
			if own[path] {
				skip(rel, SkipProjectFile, "the project's own warehouse or target folder is never loaded as a document")
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path != root && strings.HasPrefix(d.Name(), ".") {
					skip(rel, SkipHidden, "hidden folders (name starting with '.') are not loaded")
					return fs.SkipDir
				}
				return nil
			}
			if excluded(p.Loader.Exclude, rel) {
				skip(rel, SkipExcluded, "matches loader.exclude")
				return nil
			}
			if len(path) >= pathMax {
				skip(rel, SkipPathTooLong, "the path is %d bytes, longer than PATH_MAX (%d)", len(path), pathMax)
				return nil
			}
			typ := d.Type()
			if typ&fs.ModeSymlink != 0 {
				if p.Loader.Symlinks != project.SymlinksFollow {
					skip(rel, SkipSymlink, "symbolic links are not followed (loader.symlinks: skip)")
					return nil
				}
				target, err := filepath.EvalSymlinks(path)
				if err != nil {
					skip(rel, SkipSymlink, "the link's target cannot be resolved: %v", unwrapPath(err))
					return nil
				}
				if realRoot == "" || !within(realRoot, target) {
					skip(rel, SkipSymlink, "the link points outside the source folder")
					return nil
				}
				st, err := os.Stat(target)
				switch {
				case err != nil:
					skip(rel, SkipSymlink, "the link's target cannot be read: %v", unwrapPath(err))
					return nil
				case st.IsDir():
					skip(rel, SkipSymlink, "links to folders are not followed (their files are loaded where they are)")
					return nil
				case !st.Mode().IsRegular():
					skip(rel, SkipSpecial, "the link points to a %s, not a regular file", modeName(st.Mode()))
					return nil
				}
				typ = 0
			}
			if !typ.IsRegular() {
				skip(rel, SkipSpecial, "a %s is not a regular file", modeName(typ))
				return nil
			}
			rel = filepath.ToSlash(rel)
			if strings.HasSuffix(path, rel) {
				rel = path[len(path)-len(rel):] // no copy of the path's tail
			}
			f := &entry{docID: docIDIn(known, src.Name, rel), source: src.Name, rel: rel, abs: path}
			info, err := os.Stat(path) // follows a followed link
			if err != nil {
				f.err, f.gone = openError("stat", err)
				file(f)
				return nil
			}
			f.stat = statOf(info, taken)
			file(f)
			return nil
		})
	}
	return out.Skips
}

// projectFiles are the paths a source must not load: the warehouse (and
// its WAL) and the target folder, should a source contain the project.
func projectFiles(p *project.Project) map[string]bool {
	out := map[string]bool{}
	for _, f := range []string{p.Warehouse, p.Warehouse + ".wal", p.TargetDir} {
		if f != "" && f != ":memory:" {
			out[f] = true
		}
	}
	return out
}

func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator))
}

func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	}
	return "special file"
}

// unwrapPath drops the path from an *fs.PathError (the record names it).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// openError classifies a failure to open or stat a listed file: gone
// (vanished or renamed since the listing: no verdict, the next load sees
// it), unreadable (permission denied, I/O error: transient) or corrupt.
func openError(op string, err error) (*document.Error, bool) {
	if errors.Is(err, fs.ErrNotExist) {
		return nil, true
	}
	if errors.Is(err, syscall.ENAMETOOLONG) {
		return document.Errorf(document.KindUnreadable, "cannot %s the file: its path is longer than PATH_MAX", op), false
	}
	return document.Errorf(document.KindUnreadable, "cannot %s the file: %v", op, unwrapPath(err)), false
}

// EscapePath returns p as valid UTF-8: bytes that are not UTF-8 are shown
// as \xNN (the bytes themselves are kept in rel_path_bytes).
func EscapePath(p string) string {
	if utf8.ValidString(p) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, `\x%02X`, p[i])
		} else {
			b.WriteString(p[i : i+n])
		}
		i += n
	}
	return b.String()
}

// rawBytes is p's bytes when p is not valid UTF-8, else nil.
func rawBytes(p string) []byte {
	if utf8.ValidString(p) {
		return nil
	}
	return []byte(p)
}

// under reports whether rel lies in one of the folders ("." is the root).
func under(folders []string, rel string) bool {
	for _, d := range folders {
		if d == "." || rel == d || strings.HasPrefix(rel, d+"/") {
			return true
		}
	}
	return false
}

func excluded(patterns []string, rel string) bool {
	for _, pat := range patterns {
		if ok, _ := filepath.Match(pat, rel); ok {
			return true
		}
		if ok, _ := filepath.Match(pat, filepath.Base(rel)); ok {
			return true
		}
	}
	return false
}

// statOf is the part of a file's stat a plan keeps.
func statOf(info os.FileInfo, taken int64) FileStat {
	s := FileStat{Size: info.Size(), MTimeN: info.ModTime().UnixNano(), TakenN: taken}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		s.Inode, s.CTimeN = st.Ino, st.Ctim.Nano()
	}
	return s
}

// hashAll hashes files in parallel (sha256 of the bytes, streamed) and
// returns the bytes read.
func hashAll(files []*entry, workers int) int64 {
	if len(files) == 0 {
		return 0 // no 1 MiB buffer per worker for nothing (a no-op load)
	}
	ch := make(chan *entry)
	var wg sync.WaitGroup
	var read atomic.Int64
	for i := 0; i < max(workers, 1); i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 1<<20)
			for f := range ch {
				read.Add(hashFile(f, buf))
			}
		}()
	}
	for _, f := range files {
		ch <- f
	}
	close(ch)
	wg.Wait()
	return read.Load()
}

// hashFile sets f.hash from the file's bytes. It decides whether the file
// changed; the bytes a worker extracts are a snapshot taken later (see
// shared.snapshot), whose own hash is the one landed.
func hashFile(f *entry, buf []byte) int64 {
	if f.err != nil || f.gone {
		return 0
	}
	fh, err := os.Open(f.abs)
	if err != nil {
		f.err, f.gone = openError("open", err)
		return 0
	}
	h := sha256.New()
	n, err := io.CopyBuffer(h, fh, buf)
	fh.Close()
	if err != nil {
		f.err, _ = openError("read", err)
		return n
	}
	f.hash = hex.EncodeToString(h.Sum(nil))
	return n
}
