package runner

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Reading the project's files.

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

func (m *Manifest) fileText(path string) (string, bool) {
	b, err := os.ReadFile(path)
	return string(b), err == nil
}

func (m *Manifest) database() string {
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
		b, err := os.ReadFile(filepath.Join(m.Project.Dir, filepath.FromSlash(p)))
		if err != nil {
			return nil, fmt.Errorf("runner: %w", err)
		}
		out[p] = string(b)
	}
	return out, nil
}

func (m *Manifest) listTree(dir, ext string) ([]string, error) {
	root := filepath.Join(m.Project.Dir, dir)
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && path == root {
				return filepath.SkipDir
			}
			return err
		}
		if d.IsDir() {
			if path != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ext) && !strings.HasPrefix(d.Name(), ".") {
			rel, _ := filepath.Rel(m.Project.Dir, path)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("runner: scan %s: %w", dir, err)
	}
	sort.Strings(out)
	return out, nil
}

func sortedKeys[V any](mp map[string]V) []string {
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
