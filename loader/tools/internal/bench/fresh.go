package bench

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Fresh returns an error when bin is the module's own build (a file under
// the bin/ folder beside go.mod, found from the working directory) and a
// source file the binaries are built from is newer than it or than the
// docket-worker beside it: a benchmark of a stale build measures code that
// is no longer main's (session 23 found a day's figures taken with a build
// 3 hours and 2 extractor versions old). A binary elsewhere (an explicit
// -docket of another build, kept on purpose for a comparison) is the
// caller's choice and passes.
func Fresh(bin string) error {
	abs, err := filepath.Abs(bin)
	if err != nil {
		return nil
	}
	root := moduleRoot()
	if root == "" || filepath.Dir(abs) != filepath.Join(root, "bin") {
		return nil
	}
	built := time.Time{}
	for _, b := range []string{abs, filepath.Join(filepath.Dir(abs), "docket-worker")} {
		st, err := os.Stat(b)
		if err != nil {
			return fmt.Errorf("%s not found: run `make build` first", b)
		}
		if built.IsZero() || st.ModTime().Before(built) {
			built = st.ModTime()
		}
	}
	src, when := newestSource(root)
	if when.After(built) {
		rel, _ := filepath.Rel(root, src)
		return fmt.Errorf("%s (built %s) is older than %s (changed %s): run `make build` (or pass -docket for another build on purpose)",
			bin, built.Format("2006-01-02 15:04:05"), rel, when.Format("2006-01-02 15:04:05"))
	}
	return nil
}

// moduleRoot is the nearest folder at or above the working directory that
// holds go.mod ("" if none).
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// newestSource is the most recently modified file the binaries are built
// from: Go files other than tests, C sources and headers, go.mod, go.sum.
func newestSource(root string) (string, time.Time) {
	var path string
	var when time.Time
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "bin" || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		src := name == "go.mod" || name == "go.sum" ||
			(strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")) ||
			strings.HasSuffix(name, ".c") || strings.HasSuffix(name, ".h")
		if !src {
			return nil
		}
		if info, err := d.Info(); err == nil && info.ModTime().After(when) {
			path, when = p, info.ModTime()
		}
		return nil
	})
	return path, when
}
