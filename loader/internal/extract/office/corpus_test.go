package office

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
)

// corpusDir is the shared real-document corpus (absent on users' machines).
const corpusDir = "../../../../../shared/corpus/mixed"

// textless are corpus files that hold no text at all (pictures only).
var textless = map[string]bool{"picture.pptx": true, "test-image-jpg-mime.pptx": true}

// extractByExt dispatches like the loader will (by detected type).
func extractByExt(ctx context.Context, p string) (*document.Result, error) {
	var opts document.Options
	switch strings.ToLower(filepath.Ext(p)) {
	case ".docx":
		return ExtractDOCX(ctx, p, opts)
	case ".pptx":
		return ExtractPPTX(ctx, p, opts)
	case ".xlsx":
		return ExtractXLSX(ctx, p, opts)
	case ".csv":
		return ExtractCSV(ctx, p, 0, opts)
	case ".tsv":
		return ExtractCSV(ctx, p, '\t', opts)
	case ".odt":
		return ExtractODT(ctx, p, opts)
	case ".epub":
		return ExtractEPUB(ctx, p, opts)
	}
	return nil, nil
}

// TestCorpusSweep runs every office file of the corpus: no panic, a
// *document.Error for failures, valid offsets, text for non-empty files.
func TestCorpusSweep(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("corpus not found, skipped")
	}
	var files []string
	for _, dir := range []string{corpusDir, filepath.Join(corpusDir, "language-docs")} {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			switch strings.ToLower(filepath.Ext(e.Name())) {
			case ".docx", ".pptx", ".xlsx", ".csv", ".tsv", ".odt", ".epub":
				files = append(files, filepath.Join(dir, e.Name()))
			}
		}
	}
	sort.Strings(files)
	ok, failed := 0, 0
	for _, f := range files {
		start := time.Now()
		res, err := extractByExt(context.Background(), f)
		name, _ := filepath.Rel(corpusDir, f)
		if err != nil {
			var de *document.Error
			if !errors.As(err, &de) {
				t.Errorf("%s: error is not a *document.Error: %v", name, err)
			}
			failed++
			t.Logf("%-48s ERROR %v", name, err)
			continue
		}
		ok++
		checkResult(t, name, res)
		counts := map[document.Category]int{}
		chars := 0
		for _, e := range res.Elements {
			counts[e.Category]++
		}
		for _, p := range res.Pages {
			chars += utf8.RuneCountInString(p.Text)
		}
		var cs []string
		for c, n := range counts {
			cs = append(cs, fmt.Sprintf("%s=%d", c, n))
		}
		sort.Strings(cs)
		t.Logf("%-48s pages=%d chars=%d tables=%d %s %s warn=%d", name, len(res.Pages), chars, len(res.Tables), strings.Join(cs, " "), time.Since(start).Round(time.Millisecond), len(res.Warnings))
		if chars == 0 && !strings.Contains(name, "empty") && !textless[filepath.Base(name)] {
			t.Errorf("%s: no text", name)
		}
	}
	t.Logf("corpus sweep: %d extracted, %d quarantined", ok, failed)
}

// checkResult asserts the offset contract of a Result.
func checkResult(t *testing.T, name string, res *document.Result) {
	t.Helper()
	pages := map[int]string{}
	for i, p := range res.Pages {
		if p.Number != i+1 {
			t.Errorf("%s: page %d numbered %d", name, i+1, p.Number)
		}
		pages[p.Number] = p.Text
	}
	for i, e := range res.Elements {
		if e.Seq != i {
			t.Errorf("%s: element %d has seq %d", name, i, e.Seq)
		}
		txt, ok := pages[e.Page]
		if !ok {
			t.Errorf("%s: element %d on missing page %d", name, i, e.Page)
			continue
		}
		r := []rune(txt)
		if e.CharStart < 0 || e.CharEnd > len(r) || e.CharStart > e.CharEnd || string(r[e.CharStart:e.CharEnd]) != e.Text {
			t.Errorf("%s: element %d offsets [%d,%d) do not give its text", name, i, e.CharStart, e.CharEnd)
		}
		if (e.Category == document.TableCat) != (e.TableSeq >= 0) {
			t.Errorf("%s: element %d category %s tableSeq %d", name, i, e.Category, e.TableSeq)
		}
		if e.TableSeq >= len(res.Tables) {
			t.Errorf("%s: element %d tableSeq %d out of range", name, i, e.TableSeq)
		}
	}
}
