package html

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"golang.org/x/net/html"
)

const corpusDir = "../../../../../shared/corpus/mixed"

// TestCorpus extracts every *.html/*.htm of the shared corpus (skipped when
// absent): no error, non-empty text for non-empty files, offsets right.
func TestCorpus(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("corpus not found")
	}
	var files []string
	filepath.WalkDir(corpusDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".html") || strings.HasSuffix(p, ".htm")) {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatal("no HTML files in the corpus")
	}
	for _, p := range files {
		info, err := detect.Detect(p)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res, err := Extract(context.Background(), p, info, document.Options{})
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		checkResult(t, p, res)
		if st, _ := os.Stat(p); st.Size() > 0 && strings.TrimSpace(res.Pages[0].Text) == "" {
			t.Errorf("%s: empty text", p)
		}
		if testing.Verbose() {
			cats := map[document.Category]int{}
			for _, e := range res.Elements {
				cats[e.Category]++
			}
			t.Logf("%-42s %6dms chars=%-7d els=%v tables=%d title=%q lang=%q author=%q enc=%s", filepath.Base(p), time.Since(start).Milliseconds(),
				res.Pages[0].CharCount, cats, len(res.Tables), res.Metadata.Title, res.Metadata.Language, res.Metadata.Author, res.Metadata.Extra["encoding"])
		}
	}
}

// checkResult asserts one page and element texts equal to the page text
// between their code point offsets.
func checkResult(t *testing.T, name string, res *document.Result) {
	t.Helper()
	if len(res.Pages) != 1 {
		t.Fatalf("%s: %d pages", name, len(res.Pages))
	}
	page := []rune(res.Pages[0].Text)
	for i, e := range res.Elements {
		if e.Seq != i || e.CharStart < 0 || e.CharEnd > len(page) || e.CharStart >= e.CharEnd {
			t.Errorf("%s: element %d bad seq/offsets %+v", name, i, e)
			continue
		}
		if got := string(page[e.CharStart:e.CharEnd]); got != e.Text {
			t.Errorf("%s: element %d text %q != page slice %q", name, i, e.Text, got)
		}
		if (e.Category == document.TableCat) != (e.TableSeq >= 0) {
			t.Errorf("%s: element %d TableSeq %d for %s", name, i, e.TableSeq, e.Category)
		}
	}
}

// TestReadabilityInPlaceChoosesTheSame: readability working on the page's
// own tree (mainContent's mutate, used over agreeMaxBytes where nothing
// reads the tree afterwards) keeps the same blocks as on a copy, over the
// shared corpus's HTML pages (html-main's and mixed's; skipped when
// absent).
func TestReadabilityInPlaceChoosesTheSame(t *testing.T) {
	var files []string
	for _, dir := range []string{corpusDir, filepath.Join(corpusDir, "..", "html-main")} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".html") || strings.HasSuffix(p, ".htm")) && !strings.HasSuffix(p, "expected.html") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Skip("corpus not found")
	}
	chosen := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var got [2][]block
		var ok [2]bool
		for i, mutate := range []bool{false, true} {
			doc, err := html.Parse(strings.NewReader(string(data)))
			if err != nil {
				t.Fatal(err)
			}
			got[i], _, ok[i] = mainContent(doc, walkDocument(doc, true), mutate)
		}
		if ok[0] != ok[1] || strings.Join(blockTexts(got[0]), "\x00") != strings.Join(blockTexts(got[1]), "\x00") {
			t.Errorf("%s: in place %v %d blocks, on a copy %v %d blocks", p, ok[1], len(got[1]), ok[0], len(got[0]))
		}
		if ok[0] {
			chosen++
		}
	}
	t.Logf("%d pages, main content on %d", len(files), chosen)
	if chosen < len(files)/2 {
		t.Errorf("readability chose main content on %d of %d pages: the comparison says little", chosen, len(files))
	}
}
