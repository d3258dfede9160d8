package table

import (
	"strings"
	"testing"

	"codeberg.org/go-pdf/fpdf"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestSideBySideOffsetRows: two unruled tables side by side, of different
// shapes and row pitches (so their rows do not line up), are two tables;
// a table whose right columns are empty in some rows stays one.
func TestSideBySideOffsetRows(t *testing.T) {
	left := [][]string{
		{"Item", "2020", "2021"},
		{"Construction", "4.4", "5.1"},
		{"Transport", "4.9", "3.2"},
		{"Manufacturing", "1.8", "2.7"},
		{"Education", "8.1", "7.9"},
		{"Total", "19.2", "18.9"},
	}
	right := [][]string{
		{"Country", "Index"},
		{"Germany", "85.1"},
		{"Belgium", "94.5"},
		{"Netherlands", "93.0"},
		{"Portugal", "26.9"},
		{"Denmark", "69.4"},
		{"Finland", "19.2"},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Output by industry and index by country, compared over the last two years of the series.")...)
	pg.Items = append(pg.Items, tableRows(130, 19, []col{{72, false}, {200, true}, {250, true}}, left, false)...)
	pg.Items = append(pg.Items, tableRows(136, 14, []col{{320, false}, {440, true}}, right, false)...)
	pg.Items = append(pg.Items, prose(72, 260, "Figures for the latest year are provisional and may be revised.")...)
	ts := detect(t, pg)
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], left)
	wantCells(t, ts[1], right)

	// one table, sparse on the right: its rows still run across
	sparse := [][]string{
		{"Item", "2020", "2021", "Country", "Index"},
		{"Construction", "4.4", "5.1", "Germany", "85.1"},
		{"Transport", "4.9", "3.2", "", ""},
		{"Manufacturing", "1.8", "2.7", "", ""},
		{"Education", "8.1", "7.9", "Portugal", "26.9"},
		{"Total", "19.2", "18.9", "Denmark", "69.4"},
	}
	pg = page{}
	pg.Items = append(pg.Items, prose(72, 90, "Output by industry and index by country, compared over the last two years of the series.")...)
	pg.Items = append(pg.Items, tableRows(130, 14, []col{{72, false}, {200, true}, {250, true}, {320, false}, {440, true}}, sparse, false)...)
	ts = detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("sparse: want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], sparse)
}

// TestNumbersOnLabelsLastLine: in a table whose wrapped row labels carry
// their text cells on the first line and their numbers on the last, each
// label's lines are one row with all its cells.
func TestNumbersOnLabelsLastLine(t *testing.T) {
	cols := []col{{72, false}, {220, false}, {380, true}, {450, true}}
	lines := [][]string{
		{"Sector", "Status", "Amount", "Units"},
		{"Rural storage", "reported late", "140,750", "799"},
		{"Account administration", "planned", "", ""},
		{"imports and hotels", "", "605,994", "228"},
		{"Goods and mining", "ongoing", "", ""},
		{"payments", "", "687,076", "939"},
		{"Aged persons", "monthly", "603,180", "686"},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Amounts and units by sector, with the status of each return at the end of the year.")...)
	pg.Items = append(pg.Items, tableRows(124, 12, cols, lines[:1], true)...)
	pg.Items = append(pg.Items, tableRows(140, 12, cols, lines[1:], false)...)
	pg.Draw = append(pg.Draw, hline(68, 455, 112), hline(68, 455, 130), hline(68, 455, 214))
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], [][]string{
		{"Sector", "Status", "Amount", "Units"},
		{"Rural storage", "reported late", "140,750", "799"},
		{"Account administration imports and hotels", "planned", "605,994", "228"},
		{"Goods and mining payments", "ongoing", "687,076", "939"},
		{"Aged persons", "monthly", "603,180", "686"},
	})
}

// TestParagraphBesideTableSameHeight: a paragraph beside a table, no
// taller than it (no line of its own above or below the table), set at a
// leading of its own, stays out of the table: its baselines drift against
// the rows'.
func TestParagraphBesideTableSameHeight(t *testing.T) {
	rows := [][]string{
		{"Country", "Index"},
		{"Ireland", "37"},
		{"Austria", "27"},
		{"Portugal", "56"},
		{"Denmark", "58"},
		{"France", "51"},
		{"Spain", "78"},
		{"Total", "81"},
	}
	para := wrapHelv("In the quality report published with this release the survey shows that the number of "+
		"households in most regions grew over the period while the share of persons living alone rose slightly "+
		"in urban areas; the figures are based on the annual labour force survey and on the registers.", 220)
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Index by country, with the commentary of the statistical office beside it.")...)
	pg.Items = append(pg.Items, tableRows(120, 12, []col{{72, false}, {180, true}}, rows, false)...)
	pg.Items = append(pg.Items, prose(230, 121, para...)...)
	pg.Items = append(pg.Items, prose(72, 230, "Figures for the latest year are provisional and may be revised.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
}

// wrapHelv breaks text into lines of 10 pt Helvetica no wider than w, as
// a word processor does.
func wrapHelv(text string, w float64) []string {
	f := fpdf.New("P", "pt", "Letter", "")
	f.SetFont("Helvetica", "", 10)
	var out []string
	cur := ""
	for _, word := range strings.Fields(text) {
		if cur != "" && f.GetStringWidth(cur+" "+word) > w {
			out = append(out, cur)
			cur = ""
		}
		cur = strings.TrimSpace(cur + " " + word)
	}
	return append(out, cur)
}

// TestFirstLabelWrappedAboveItsNumbers: in a table whose wrapped row
// labels carry their numbers on their last line, the first row's label
// starts a line above the first line with numbers; it is the first row's,
// not left out of the table.
func TestFirstLabelWrappedAboveItsNumbers(t *testing.T) {
	cols := []col{{72, false}, {260, true}, {330, true}}
	lines := [][]string{
		{"Agriculture, forestry and", "", ""},
		{"fishing", "76.4", "70.2"},
		{"Mining and quarrying", "86.9", "81.0"},
		{"Wholesale and retail trade,", "", ""},
		{"repairs", "51.7", "50.3"},
		{"Transport and storage", "36.2", "35.9"},
		{"Public administration and", "", ""},
		{"defence", "0.3", "0.4"},
	}
	wantCells(t, labelsTable(t, cols, lines), [][]string{
		{"Agriculture, forestry and fishing", "76.4", "70.2"},
		{"Mining and quarrying", "86.9", "81.0"},
		{"Wholesale and retail trade, repairs", "51.7", "50.3"},
		{"Transport and storage", "36.2", "35.9"},
		{"Public administration and defence", "0.3", "0.4"},
	})
}

// TestFirstLabelLineWiderThanStub: the first row's label starts a line
// above its numbers, on a line wider than any other of the stub column
// (reaching into the gap before the numbers); it is still the first
// row's, not running text above the table.
func TestFirstLabelLineWiderThanStub(t *testing.T) {
	cols := []col{{72, false}, {270, true}, {340, true}}
	lines := [][]string{
		{"Agriculture Central Capital Employees", "", ""},
		{"years", "76.4", "70.2"},
		{"Mining population", "86.9", "81.0"},
		{"Mining Operating aged", "", ""},
		{"account", "51.7", "50.3"},
		{"Population Interest", "", ""},
		{"self-employed", "36.2", "35.9"},
	}
	wantCells(t, labelsTable(t, cols, lines), [][]string{
		{"Agriculture Central Capital Employees years", "76.4", "70.2"},
		{"Mining population", "86.9", "81.0"},
		{"Mining Operating aged account", "51.7", "50.3"},
		{"Population Interest self-employed", "36.2", "35.9"},
	})
}

// labelsTable is the one table detected on a page of lines set at 11 pt
// pitch under a sentence and over another.
func labelsTable(t *testing.T, cols []col, lines [][]string) document.Table {
	t.Helper()
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Share of employment covered by collective agreements, by industry, in percent.")...)
	pg.Items = append(pg.Items, tableRows(140, 11, cols, lines, false)...)
	pg.Items = append(pg.Items, prose(72, 250, "Figures for the latest year are provisional and may be revised.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	return ts[0]
}

// TestNumbersOnTextCellsLastLine: a row whose text cell wraps and whose
// numbers sit on that cell's last line is one row.
func TestNumbersOnTextCellsLastLine(t *testing.T) {
	cols := []col{{72, false}, {180, false}, {380, true}, {450, true}}
	lines := [][]string{
		{"Region", "Arrangement", "Amount", "Share"},
		{"Mining", "Not applicable", "60.7", "45.5"},
		{"Net", "Shared with neighbouring", "", ""},
		{"", "districts", "87.3", "78.2"},
		{"Revenue", "Monthly", "33.1", "32.3"},
		{"Current", "High", "26.5", "82.7"},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "Amounts and shares by region, with the arrangement under which each is collected.")...)
	pg.Items = append(pg.Items, tableRows(124, 12, cols, lines[:1], true)...)
	pg.Items = append(pg.Items, tableRows(140, 12, cols, lines[1:], false)...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], [][]string{
		{"Region", "Arrangement", "Amount", "Share"},
		{"Mining", "Not applicable", "60.7", "45.5"},
		{"Net", "Shared with neighbouring districts", "87.3", "78.2"},
		{"Revenue", "Monthly", "33.1", "32.3"},
		{"Current", "High", "26.5", "82.7"},
	})
}
