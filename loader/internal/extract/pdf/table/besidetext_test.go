package table

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

// TestTableBesideRunningText: a small table set in one column of
// two-column text (9pt, a 12pt leading), its rows a row's pitch apart
// beside the other column's paragraphs, is found alone: the text beside,
// lined up across the page with the table's rows, is neither taken into
// it (the table merged with the paragraph) nor keeps it from being found
// (a head and one row among the paragraph's lines). The pages are
// surround tune kd-5038's and kd-5004's, each phrase where Chromium
// printed it.
func TestTableBesideRunningText(t *testing.T) {
	// the page's one table, of cells want
	one := func(t *testing.T, ps []phraseAt, want [][]string) document.Table {
		t.Helper()
		ts := New().DetectTables(chromiumLayout(ps))
		if len(ts) != 1 {
			t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
		}
		wantCells(t, ts[0], want)
		return ts[0]
	}
	t.Run("head and one row", func(t *testing.T) { // kd-5038
		one(t, []phraseAt{
			{42, 57.6, "Estimated route shares below measured significant above mainly shares decreased baseline within within service"},
			{42, 69.6, "decreased statement within terms equity fair."},
			{42, 90.6, "Dividend baseline delivery interest between prices"},
			{315, 91.4, "Role"}, {382.3, 91.4, "Extension"}, {433.4, 91.4, "Room"},
			{42, 103.4, "values statement period. Service growth due observed"},
			{315, 106.4, "Site manager"}, {382.3, 106.4, "5050"}, {433.4, 106.4, "A-262"},
			{42, 115.4, "reference below during energy accounting below"},
			{315, 119.1, "Goods baseline between terms lower connections"},
			{42, 127.4, "market."},
			{315, 131.1, "dividend results shown."},
			{315, 143.1, "Company interest tax market effect demand above"},
			{42, 148.4, "Study increased station service connections shown"},
			{315, 155.1, "value contracts assets tax within model changes"},
			{42, 160.4, "baseline passengers contracts costs due timetable"},
			{315, 167.9, "interest."},
			{42, 173.1, "value model days days. Equity assets mainly changes"},
			{42, 185.1, "revenue value increased due segment demand flows"},
			{315, 188.9, "Revenue increased station from days table programme"},
			{42, 197.1, "account."},
			{315, 200.9, "equity due."},
		}, [][]string{{"Role", "Extension", "Room"}, {"Site manager", "5050", "A-262"}})
	})
	t.Run("four rows", func(t *testing.T) { // kd-5004
		tb := one(t, []phraseAt{
			{42, 57.6, "Tax station route shown due results analysis period mainly follow weekend previous values costs programme value"},
			{42, 69.6, "fair during policies difference."},
			{42, 90.6, "Weekend route observed delivery observed period"},
			{320.2, 92.1, "Country"}, {371.1, 92.1, "Population (m)"},
			{42, 103.4, "route contracts liabilities weekend treatment energy"},
			{320.2, 108.6, "Portugal"}, {418.1, 108.6, "36.9"},
			{42, 115.4, "were prices above cash value investment effect"},
			{320.2, 123.6, "Ghana"}, {418.1, 123.6, "50.0"},
			{42, 127.4, "between."},
			{418.1, 138.6, "93.1"},
			{42, 148.4, "Payment further reported received between"},
			{320.2, 153.6, "Finland"}, {418.1, 153.6, "8.0"},
			{42, 160.4, "operations model were higher."},
			{320.2, 168.65, "Effect within from payment below observed compared"},
			{320.2, 181.4, "account the table dividend reported mainly."},
			{320.2, 193.4, "Table due liabilities baseline revenue accounting"},
			{320.2, 205.4, "holiday apply follow payment assets assets effect"},
			{320.2, 217.4, "during notes station increased fair sample. Shown"},
			{320.2, 229.4, "route expects weekend sample cash due sample value"},
		}, [][]string{{"Country", "Population (m)"}, {"Portugal", "36.9"}, {"Ghana", "50.0"}, {"", "93.1"}, {"Finland", "8.0"}})
		// the last row where it is printed, in the box (not moved level
		// with the middle of the paragraph's two lines beside it: its
		// text would be left out of the table's box)
		if b := tb.BBox; b.Y1 < 153.6+10.47-0.5 {
			t.Errorf("table box %+v ends over its last row (bottom %g)", b, 153.6+10.47)
		}
	})
}

// phraseAt is a phrase of a Chromium-printed page at 9pt: its left edge
// and its top.
type phraseAt struct {
	x, y float64
	s    string
}

// chromiumLayout is a page of these phrases, each word's box as
// Chromium's font draws it at 9pt (10.47pt tall from the phrase's top,
// 4.6pt a character, a 2.5pt space): the fixture PDFs' Helvetica boxes
// are taller and change which lines overlap.
func chromiumLayout(ps []phraseAt) *pdf.Layout {
	lay := &pdf.Layout{Width: 612, Height: 792}
	var b pdf.Block
	for _, p := range ps {
		ln := pdf.Line{Text: p.s, FontSize: 9, Font: -1, Dir: [2]float64{1, 0}}
		x := p.x
		for _, w := range strings.Fields(p.s) {
			wd := 4.6 * float64(len(w))
			ln.Words = append(ln.Words, pdf.Word{Text: w, Size: 9, BBox: document.BBox{X0: x, Y0: p.y, X1: x + wd, Y1: p.y + 10.47}})
			x += wd + 2.5
		}
		ln.BBox = document.BBox{X0: p.x, Y0: p.y, X1: x - 2.5, Y1: p.y + 10.47}
		b.Lines = append(b.Lines, ln)
	}
	lay.Blocks = append(lay.Blocks, b)
	return lay
}

// TestWrappedProseCellsStay: a table whose text column wraps sentences
// over three lines at the text's leading, its other cells level with
// each label's first line, keeps that column: a wrapped cell is no
// paragraph beside the table (its lines share their row's baselines).
func TestWrappedProseCellsStay(t *testing.T) {
	labels := []string{
		"Inspections of every site are carried out by the operator at least twice a year",
		"Records of the inspections are kept for five years and shown to the authority",
		"Samples are stored at four degrees and analysed within two days of collection",
		"Staff who handle personal data complete the training every year without fail",
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 90, "The measures taken by the operator in the year under review, with the office that answers for each of them.")...)
	want := [][]string{{"Measure", "Office", "Year"}}
	pg.Items = append(pg.Items, txt{X: 72, Y: 120, Size: 10, S: "Measure"}, txt{X: 300, Y: 120, Size: 10, S: "Office"}, txt{X: 400, Y: 120, Size: 10, S: "Year"})
	y := 142.0
	for i, l := range labels {
		ls := wrapHelv(l, 200)
		pg.Items = append(pg.Items, prose(72, y, ls...)...)
		office, year := []string{"North", "South", "East", "West"}[i], []string{"2019", "2020", "2021", "2022"}[i]
		pg.Items = append(pg.Items, txt{X: 300, Y: y, Size: 10, S: office}, txt{X: 400, Y: y, Size: 10, S: year})
		want = append(want, []string{strings.Join(ls, " "), office, year})
		y += float64(len(ls))*13 + 8
	}
	pg.Items = append(pg.Items, prose(72, y+20, "Figures for the latest year are provisional and may be revised.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], want)
}

// TestWrappedCellBesideTable: a cell wrapped over three lines, its row's
// number level with its middle line, beside another table whose rows
// stand out of step with its lines (kinds tune kd-1490, two tables side
// by side, its phrases where Chromium printed them), stays the table's
// cell: a block with phrases beside it on both sides is no running text
// beside a table (pdf/107 took it out, and the row lost its label).
func TestWrappedCellBesideTable(t *testing.T) {
	ps := []phraseAt{
		{42, 69.6, "route estimated reference holiday growth policies reference treatment company prices model mainly assets period"},
		{42, 81.6, "the cash."},
		{200.8, 110.8, "Action"}, {395.1, 110.8, "Owner"},
		{200.8, 128.9, "Staff who handle personal data"},
		{200.8, 140.9, "complete the annual training and"}, {395.1, 140.9, "5.16"},
		{200.8, 152.9, "confirm that they have read the policy."},
		{200.8, 170.9, "Fire doors are kept closed at all times"},
		{200.8, 183.6, "and checked weekly for damage to the"}, {395.1, 183.6, "8.6"},
		{200.8, 195.6, "seals and closers."},
		{42, 230, "Segment difference higher market compared measured reference measured."},
	}
	left := [][]string{{"67–74", "45.9%"}, {"68–76", "27.2%"}, {"73–86", "48.4%"}, {"73–82", "21.7%"}, {"48–60", "44.3%"}, {"42–52", "17.6%"}}
	for i, r := range left {
		y := 110.1 + 12*float64(i)
		if i == 5 {
			y = 170.9
		}
		ps = append(ps, phraseAt{75, y, r[0]}, phraseAt{121.9, y, r[1]})
	}
	ts := New().DetectTables(chromiumLayout(ps))
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	if ts[0].BBox.X0 > ts[1].BBox.X0 {
		ts[0], ts[1] = ts[1], ts[0]
	}
	wantCells(t, ts[0], left)
	wantCells(t, ts[1], [][]string{
		{"Action", "Owner"},
		{"Staff who handle personal data complete the annual training and confirm that they have read the policy.", "5.16"},
		{"Fire doors are kept closed at all times and checked weekly for damage to the seals and closers.", "8.6"},
	})
}
