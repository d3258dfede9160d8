package compiler

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

func toInt(v any) int {
	switch t := v.(type) {
	case int:
		return t
	case float64:
		return int(t)
	}
	var n int
	fmt.Sscan(fmt.Sprint(v), &n)
	return n
}

// fileText reads a file the project names by absolute path (project.yaml,
// dbt_project.yml) or by a path relative to the project.
func (m *Manifest) fileText(path string) (string, bool) {
	b, err := m.readFile(path)
	return string(b), err == nil
}

// readFile reads a project file through the project's fs.FS
// (ParseOptions.FS). p is slash-separated and relative to the project, or
// absolute inside it. Only a local package outside the project folder
// (packages.yml `local: ../x`) is read from the disk directly: an fs.FS
// has no path above its root.
func (m *Manifest) readFile(p string) ([]byte, error) {
	if rel, ok := m.inside(p); ok {
		return fs.ReadFile(m.fsys, rel)
	}
	return os.ReadFile(m.outside(p))
}

// inside turns p into a path of the project's fs.FS, if it is one.
func (m *Manifest) inside(p string) (string, bool) {
	if filepath.IsAbs(p) {
		rel, err := filepath.Rel(m.Project.Dir, p)
		if err != nil {
			return "", false
		}
		p = rel
	}
	p = path.Clean(filepath.ToSlash(p))
	if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
		return "", false
	}
	return p, true
}

// outside is the disk path of a file outside the project's folder.
func (m *Manifest) outside(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(m.Project.Dir, filepath.FromSlash(p))
}

// dirFS is the folder dir (relative to the project) as an fs.FS.
func (m *Manifest) dirFS(dir string) (fs.FS, error) {
	if rel, ok := m.inside(dir); ok {
		if rel == "." {
			return m.fsys, nil
		}
		return fs.Sub(m.fsys, rel)
	}
	return os.DirFS(m.outside(dir)), nil
}

func (m *Manifest) Database() string {
	b := filepath.Base(m.Project.Warehouse)
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// readTree reads every file under dir with the extension, keyed by
// slash-separated path relative to the project.
func (m *Manifest) readTree(dir, ext string) (map[string]string, error) {
	paths, err := m.listTree(dir, ext)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, p := range paths {
		b, err := m.readFile(p)
		if err != nil {
			return nil, fmt.Errorf("runner: %w", err)
		}
		out[p] = string(b)
	}
	return out, nil
}

// listTree lists the files under dir (relative to the project) with the
// extension, as slash paths relative to the project; hidden files and
// folders are left out, a missing dir lists nothing.
func (m *Manifest) listTree(dir, ext string) ([]string, error) {
	var out []string
	err := m.walkFiles(dir, func(rel string, d fs.DirEntry) {
		if strings.HasSuffix(d.Name(), ext) {
			out = append(out, rel)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("runner: scan %s: %w", dir, err)
	}
	sort.Strings(out)
	return out, nil
}

// walkFiles calls fn with each file under dir (not hidden, not under a hidden
// folder), named by its slash path relative to the project.
func (m *Manifest) walkFiles(dir string, fn func(rel string, d fs.DirEntry)) error {
	fsys, err := m.dirFS(dir)
	if err != nil {
		return err
	}
	prefix := path.Clean(filepath.ToSlash(dir))
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == "." {
				return fs.SkipDir
			}
			return err
		}
		if d.IsDir() {
			if p != "." && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasPrefix(d.Name(), ".") {
			fn(path.Join(prefix, p), d)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func SortedKeys[V any](mp map[string]V) []string {
	out := make([]string, 0, len(mp))
	for k := range mp {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// packageNames lists installed packages' names (none yet: filled by the
// package reader).
func (m *Manifest) packageNames() map[string]bool {
	out := map[string]bool{}
	for _, p := range m.packages {
		out[p] = true
	}
	return out
}
