package table

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf/tablegen"
)

// TestHeadsWrappedOverSeveralLines: a generated booktabs table (tablegen
// seed 200, layout wrapheads) whose column heads wrap over up to six
// lines, centred over narrow number columns, so the head lines' phrases
// cross the body's column gaps and the run of lines is cut between head
// and body. The head lines are no table of their own: they head the body
// under them. Most words of the truth's heads are in the detected
// table's first row (before, the table was found without them).
func TestHeadsWrappedOverSeveralLines(t *testing.T) {
	doc, err := tablegen.GenerateLayout(200, "wrapheads")
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Tables) != 1 || doc.Tables[0].Style != tablegen.Booktabs {
		t.Fatalf("the generator's seed 200 page changed: %d tables", len(doc.Tables))
	}
	var heads []string
	for _, c := range doc.Tables[0].Cells {
		if c.R0 == 0 {
			heads = append(heads, strings.Fields(c.Text)...)
		}
	}
	name := filepath.Join(t.TempDir(), "gen.pdf")
	if err := os.WriteFile(name, doc.PDF, 0o644); err != nil {
		t.Fatal(err)
	}
	ts := detectFile(t, name)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	first := map[string]int{}
	for _, c := range cellsOf(ts[0])[0] {
		for _, w := range strings.Fields(c) {
			first[w]++
		}
	}
	found := 0
	for _, w := range heads {
		if first[w] > 0 {
			first[w]--
			found++
		}
	}
	if 10*found < 8*len(heads) {
		t.Errorf("%d of the %d head words in the first row: %q", found, len(heads), cellsOf(ts[0])[0])
	}
}
