package textproc

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusText runs the text functions over the real corpus's text-like
// files (any encoding, so invalid UTF-8 too) and checks the contracts. It
// is skipped when ../shared/corpus is absent.
func TestCorpusText(t *testing.T) {
	root := filepath.Join("..", "..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skip("corpus not found")
	}
	if testing.Short() {
		t.Skip("short")
	}
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch strings.ToLower(filepath.Ext(path)) {
		case ".txt", ".md", ".html", ".htm", ".csv", ".tsv", ".json", ".eml", ".rst", ".xml":
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if len(b) > 1<<20 {
			b = b[:1<<20]
		}
		s := string(b)
		n++
		norm := NormalizeText(s)
		if NormalizeText(norm) != norm {
			t.Errorf("%s: normalization not idempotent", path)
		}
		boundaries := []int{len([]rune(s)) / 3}
		checkChunks(t, s, 800, 100, boundaries, ChunkText(s, 800, 100, boundaries))
		DetectLanguage(s)
		Stats(s, map[string]bool{"the": true})
		MinHash(s, 2, 64)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files", n)
}
