package text

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

const corpusDir = "../../../../../shared/corpus/mixed"

// TestCorpus extracts every text-family file of the shared corpus (skipped
// when absent): no error except a clear *document.Error, offsets consistent.
func TestCorpus(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("corpus not found")
	}
	n := 0
	err := filepath.WalkDir(corpusDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := detect.Detect(p)
		if err != nil {
			return err
		}
		switch info.Type {
		case detect.Text, detect.Markdown, detect.RST, detect.Org, detect.JSON, detect.NDJSON, detect.XML, detect.CSV, detect.TSV:
		default:
			return nil
		}
		n++
		res, err := Extract(context.Background(), p, info, document.Options{})
		if err != nil {
			var de *document.Error
			if !errors.As(err, &de) {
				t.Errorf("%s: %v", p, err)
			}
			return nil
		}
		checkOffsets(t, p, res)
		if testing.Verbose() {
			cats := map[document.Category]int{}
			for _, e := range res.Elements {
				cats[e.Category]++
			}
			t.Logf("%-50s %-8s chars=%-7d els=%v title=%q warn=%v", filepath.Base(p), info.Type, res.Pages[0].CharCount, cats, res.Metadata.Title, res.Warnings)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Errorf("only %d text files found", n)
	}
}
