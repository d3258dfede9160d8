package email

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

const corpusDir = "../../../../../shared/corpus/mixed"

// TestCorpusSweep reads every message of the corpus: no panic, failures
// as *document.Error, offsets that give the element texts back.
func TestCorpusSweep(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "eml", "*.eml"))
	more, _ := filepath.Glob(filepath.Join(corpusDir, "language-docs", "*.eml"))
	files = append(files, more...)
	if len(files) == 0 {
		t.Skip("corpus not found, skipped")
	}
	sort.Strings(files)
	ok, failed := 0, 0
	for _, f := range files {
		name, _ := filepath.Rel(corpusDir, f)
		res, err := Extract(context.Background(), f, document.Options{})
		if err != nil {
			var de *document.Error
			if !errors.As(err, &de) {
				t.Errorf("%s: not a *document.Error: %v", name, err)
			}
			failed++
			t.Logf("%-52s ERROR %v", name, err)
			continue
		}
		ok++
		checkOffsets(t, name, res)
		counts := map[document.Category]int{}
		for _, e := range res.Elements {
			counts[e.Category]++
		}
		var cs []string
		for c, n := range counts {
			cs = append(cs, fmt.Sprintf("%s=%d", c, n))
		}
		sort.Strings(cs)
		var att []string
		for _, a := range res.Attachments {
			att = append(att, fmt.Sprintf("%s(%d)", a.Name, len(a.Data)))
		}
		t.Logf("%-52s chars=%d %s subj=%q date=%q att=%v warn=%d", name, len([]rune(res.Pages[0].Text)), strings.Join(cs, " "), res.Metadata.Title, res.Metadata.Created, att, len(res.Warnings))
	}
	t.Logf("corpus sweep: %d extracted, %d quarantined", ok, failed)
}

func checkOffsets(t *testing.T, name string, res *document.Result) {
	t.Helper()
	if len(res.Pages) != 1 {
		t.Fatalf("%s: %d pages", name, len(res.Pages))
	}
	r := []rune(res.Pages[0].Text)
	for i, e := range res.Elements {
		table := e.Category == document.TableCat && e.TableSeq >= 0 && e.TableSeq < len(res.Tables)
		if e.Seq != i || e.Page != 1 || (e.TableSeq != -1 && !table) {
			t.Errorf("%s: element %d: seq %d page %d tableSeq %d", name, i, e.Seq, e.Page, e.TableSeq)
		}
		if e.CharStart < 0 || e.CharEnd > len(r) || string(r[e.CharStart:e.CharEnd]) != e.Text {
			t.Errorf("%s: element %d offsets do not give its text", name, i)
		}
	}
}

func TestDump(t *testing.T) {
	p := os.Getenv("DUMP")
	if p == "" {
		t.Skip()
	}
	res, err := Extract(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("META %+v\nWARN %v\n", res.Metadata, res.Warnings)
	for _, e := range res.Elements {
		fmt.Printf("%s L%d: %q\n", e.Category, e.Level, e.Text)
	}
	for _, a := range res.Attachments {
		fmt.Printf("ATT %s %d\n", a.Name, len(a.Data))
	}
}
