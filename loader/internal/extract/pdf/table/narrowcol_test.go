package table

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/tablegen"
)

// TestShortCellsAtTheBottom: a generated table (tablegen seed 74 in the
// bodywrap layout, a tune page of v4; v5 draws another layout there) whose values carry their margins of error on a
// second line, its text column wrapping over two or three lines in the
// first rows and holding one short word ("low") in the last but one. Read
// alone, the last rows' text column ends early, so the first rows' cells,
// starting where it starts and ending short of the next column, seemed to
// cross its gap: the run was cut there and its last two rows, too few for
// a table, were lost. Now one table with every row.
func TestShortCellsAtTheBottom(t *testing.T) {
	doc, ts := detectGenerated(t, 74, "bodywrap")
	if len(doc.Tables) != 1 {
		t.Fatalf("the generator's seed 74 page changed: %s, %d tables", doc.Layout, len(doc.Tables))
	}
	rows := truthRows(doc.Tables[0])
	if len(ts) != 1 || len(cellsOf(ts[0])) != rows {
		t.Fatalf("want 1 table of %d rows, got %d: %s", rows, len(ts), dump(ts))
	}
}

// detectGenerated: the tables found on the tablegen page of seed in
// layout, with the page.
func detectGenerated(t *testing.T, seed uint64, layout string) (tablegen.Doc, []document.Table) {
	t.Helper()
	doc, err := tablegen.GenerateLayout(seed, layout)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "gen.pdf")
	if err := os.WriteFile(name, doc.PDF, 0o644); err != nil {
		t.Fatal(err)
	}
	return doc, detectFile(t, name)
}

// truthRows is a truth table's row count.
func truthRows(tb tablegen.Table) int {
	rows := 0
	for _, c := range tb.Cells {
		rows = max(rows, c.R1+1)
	}
	return rows
}
