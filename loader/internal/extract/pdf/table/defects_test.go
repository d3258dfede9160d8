package table

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// Generated pages for the defect classes that held-out layouts showed:
// a multi-line cell split into rows, paragraph text pulled into a table,
// two adjacent tables merged, spanning header cells lost, small unruled
// tables not found. Each page is built from rows of cells placed like a
// typesetter would (left-aligned labels, right-aligned numbers, 13pt line
// pitch for 10pt text).

// helvWidth is the advance of s in Helvetica at 10pt (the AFM widths of
// the characters numbers are made of; 556 for anything else, which only
// left-aligned text uses).
func helvWidth(s string) float64 {
	w := 0.0
	for _, r := range s {
		switch r {
		case ' ', ',', '.':
			w += 278
		case '-':
			w += 333
		case '%':
			w += 889
		case '+':
			w += 584
		default:
			w += 556
		}
	}
	return w / 100
}

// col is where a column's text goes: left-aligned at x, or right-aligned
// at x when right.
type col struct {
	x     float64
	right bool
}

// tableRows places rows of cells at y, y+pitch, ...; "" cells are left out.
func tableRows(y, pitch float64, cols []col, rows [][]string, boldFirst bool) []txt {
	var out []txt
	for i, r := range rows {
		for j, c := range r {
			if c == "" {
				continue
			}
			x := cols[j].x
			if cols[j].right {
				x -= helvWidth(c)
			}
			out = append(out, txt{X: x, Y: y + float64(i)*pitch, Size: 10, Bold: boldFirst && i == 0, S: c})
		}
	}
	return out
}

func wantCells(t *testing.T, tb document.Table, want [][]string) {
	t.Helper()
	if got := cellsOf(tb); !reflect.DeepEqual(got, want) {
		t.Errorf("cells:\n got %q\nwant %q", got, want)
	}
}

// wantTable: the page holds one table, of these cells.
func wantTable(t *testing.T, pg page, want [][]string) {
	t.Helper()
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], want)
}

var budgetCols = []col{{72, false}, {330, true}, {420, true}}

// TestMultiLineCell: a label wrapped over two lines is one cell, whether
// the numbers sit on its first line or its last, with booktabs rules or
// none.
func TestMultiLineCell(t *testing.T) {
	top := [][]string{
		{"Programme", "2022", "2023"},
		{"Early childhood education", "1,200", "1,350"},
		{"and care services", "", ""},
		{"School meals", "450", "470"},
		{"Adult literacy and", "980", "1,020"},
		{"vocational training", "", ""},
		{"Transport", "300", "320"},
	}
	bottom := [][]string{
		{"Programme", "2022", "2023"},
		{"Early childhood education", "", ""},
		{"and care services", "1,200", "1,350"},
		{"School meals", "450", "470"},
		{"Adult literacy and", "", ""},
		{"vocational training", "980", "1,020"},
		{"Transport", "300", "320"},
	}
	want := [][]string{
		{"Programme", "2022", "2023"},
		{"Early childhood education and care services", "1,200", "1,350"},
		{"School meals", "450", "470"},
		{"Adult literacy and vocational training", "980", "1,020"},
		{"Transport", "300", "320"},
	}
	rules := []string{hline(72, 420, 138), hline(72, 420, 154), hline(72, 420, 232)}
	long := [][]string{
		{"Programme", "2022", "2023"},
		{"Early childhood education", "1,200", "1,350"},
		{"and care services for", "", ""},
		{"families in rural areas", "", ""},
		{"and in the small towns", "", ""},
		{"of the region", "", ""},
		{"School meals", "450", "470"},
		{"Transport", "300", "320"},
	}
	for _, c := range []struct {
		name  string
		rows  [][]string
		rules []string
	}{
		{"numbers on the first line", top, nil},
		{"numbers on the last line", bottom, nil},
		{"booktabs rules", top, rules},
		{"five lines", long, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := want
			if c.name == "five lines" {
				want = [][]string{
					{"Programme", "2022", "2023"},
					{"Early childhood education and care services for families in rural areas and in the small towns of the region", "1,200", "1,350"},
					{"School meals", "450", "470"},
					{"Transport", "300", "320"},
				}
			}
			pg := page{Draw: c.rules}
			pg.Items = append(pg.Items, prose(72, 90, "Spending by programme, in thousands of euro, for the two years.")...)
			pg.Items = append(pg.Items, tableRows(150, 13, budgetCols, c.rows, true)...)
			pg.Items = append(pg.Items, prose(72, 270, "All programmes grew in the second year.")...)
			ts := detect(t, pg)
			if len(ts) != 1 {
				t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
			}
			wantCells(t, ts[0], want)
		})
	}
}

// TestParagraphBesideTable: running text to the right of a table, at the
// same heights, and paragraphs just above and below it stay out of it.
func TestParagraphBesideTable(t *testing.T) {
	rows := [][]string{
		{"Country", "Cases", "Deaths"},
		{"Austria", "1,204", "31"},
		{"Belgium", "2,310", "57"},
		{"Croatia", "877", "12"},
		{"Denmark", "1,015", "20"},
		{"Estonia", "340", "4"},
	}
	pg := page{}
	pg.Items = append(pg.Items, prose(72, 111, "The table below gives the cases and deaths reported by each country.")...)
	pg.Items = append(pg.Items, tableRows(137, 13, []col{{72, false}, {190, true}, {250, true}}, rows, true)...)
	pg.Items = append(pg.Items, prose(300, 124,
		"Reporting differed between countries:",
		"some counted cases by the date of the",
		"test, others by the date on which the",
		"result reached the health authority,",
		"so weekly figures are not comparable",
		"although the totals for the period are.",
		"Deaths are those within 28 days of a",
		"positive test in every country listed.")...)
	pg.Items = append(pg.Items, prose(72, 228, "Figures for the last week are provisional and may be revised later.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
	if b := ts[0].BBox; b.X1 > 290 || b.Y0 < 116 || b.Y1 > 215 {
		t.Errorf("table box %+v reaches into the paragraphs", b)
	}
}

// TestAdjacentTables: two unruled tables with different columns, one
// under the other with only a little more than a line's space between,
// stay two tables.
func TestAdjacentTables(t *testing.T) {
	a := [][]string{
		{"Country", "Population", "Area", "GDP"},
		{"France", "68.0", "551", "2,780"},
		{"Germany", "84.4", "357", "4,070"},
		{"Italy", "58.9", "301", "2,010"},
		{"Spain", "48.1", "506", "1,420"},
	}
	b := [][]string{
		{"Year", "Exports", "Imports"},
		{"2020", "1,210.5", "1,105.2"},
		{"2021", "1,388.0", "1,301.9"},
		{"2022", "1,517.3", "1,498.8"},
	}
	pg := page{}
	pg.Items = append(pg.Items, tableRows(140, 13, []col{{72, false}, {250, true}, {330, true}, {420, true}}, a, true)...)
	pg.Items = append(pg.Items, tableRows(140+4*13+24, 13, []col{{72, false}, {200, true}, {290, true}}, b, true)...)
	ts := detect(t, pg)
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], a)
	wantCells(t, ts[1], b)
}

// TestSpanningHeader: a header cell centred over two columns (with a rule
// under it only) keeps its place and records its span.
func TestSpanningHeader(t *testing.T) {
	rows := [][]string{
		{"Region", "", ""},
		{"", "2020", "2021"},
		{"North", "10.5", "11.0"},
		{"South", "7.25", "7.5"},
		{"East", "3.1", "3.3"},
	}
	cols := []col{{72, false}, {300, true}, {400, true}}
	pg := page{Draw: []string{hline(72, 400, 128), hline(250, 400, 147), hline(72, 400, 160), hline(72, 400, 205)}}
	pg.Items = append(pg.Items, tableRows(140, 13, cols, rows, true)...)
	pg.Items = append(pg.Items, txt{X: 325 - helvWidth("Population")/2, Y: 140, Size: 10, Bold: true, S: "Population"})
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	want := [][]string{
		{"Region", "Population", ""},
		{"", "2020", "2021"},
		{"North", "10.5", "11.0"},
		{"South", "7.25", "7.5"},
		{"East", "3.1", "3.3"},
	}
	wantCells(t, ts[0], want)
	wantSpan := document.CellSpan{Row: 0, Col: 1, Rows: 1, Cols: 2}
	found := false
	for _, s := range ts[0].Spans {
		if s == wantSpan {
			found = true
		} else if s.Row > 0 {
			t.Errorf("unexpected span %+v", s)
		}
	}
	if !found {
		t.Errorf("spans %+v lack %+v", ts[0].Spans, wantSpan)
	}
}

// TestSmallUnruledTable: three lines of two or three aligned columns
// between paragraphs are a table.
func TestSmallUnruledTable(t *testing.T) {
	t.Run("text only, top and bottom rules", func(t *testing.T) {
		rows := [][]string{{"Name", "Role", "Office"}, {"Ann Lee", "Chair", "Paris"}, {"Bo Chen", "Treasurer", "Lyon"}}
		pg := page{Draw: []string{hline(70, 340, 133), hline(70, 340, 174)}}
		pg.Items = append(pg.Items, prose(72, 100, "The board for the coming year was elected at the meeting in May.")...)
		pg.Items = append(pg.Items, tableRows(145, 13, []col{{72, false}, {200, false}, {300, false}}, rows, false)...)
		pg.Items = append(pg.Items, prose(72, 200, "Their terms run until the next general meeting of the association.")...)
		ts := detect(t, pg)
		if len(ts) != 1 {
			t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
		}
		wantCells(t, ts[0], rows)
	})
	for name, c := range map[string]struct {
		cols []col
		rows [][]string
	}{
		"three columns": {[]col{{72, false}, {220, true}, {300, true}}, [][]string{
			{"Year", "Visitors", "Change"}, {"2022", "1,200", "+4%"}, {"2023", "1,450", "+21%"}}},
		"two columns": {[]col{{72, false}, {220, true}}, [][]string{
			{"Item", "Cost"}, {"Paper", "12.50"}, {"Ink cartridges", "40.00"}}},
		"text only, bold header": {[]col{{72, false}, {200, false}, {300, false}}, [][]string{
			{"Name", "Role", "Office"}, {"Ann Lee", "Chair", "Paris"}, {"Bo Chen", "Treasurer", "Lyon"}, {"Cy Diaz", "Secretary", "Nice"}}},
	} {
		t.Run(name, func(t *testing.T) {
			pg := page{}
			pg.Items = append(pg.Items, prose(72, 100, "Visitors came back after the works on the museum were finished, and",
				"the second year brought the most since the museum opened.")...)
			pg.Items = append(pg.Items, tableRows(145, 13, c.cols, c.rows, true)...)
			pg.Items = append(pg.Items, prose(72, 200, "The figures are counted at the entrance and include school visits.")...)
			ts := detect(t, pg)
			if len(ts) != 1 {
				t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
			}
			wantCells(t, ts[0], c.rows)
			for _, r := range cellsOf(ts[0]) {
				if strings.Contains(strings.Join(r, " "), "museum") {
					t.Errorf("paragraph text in the table: %q", r)
				}
			}
		})
	}
}

// dump shows tables' boxes and cells in a failure message.
func dump(ts []document.Table) string {
	var b strings.Builder
	for _, tb := range ts {
		fmt.Fprintf(&b, "\n[%.0f %.0f %.0f %.0f]", tb.BBox.X0, tb.BBox.Y0, tb.BBox.X1, tb.BBox.Y1)
		for _, r := range cellsOf(tb) {
			fmt.Fprintf(&b, "\n  %q", r)
		}
	}
	return b.String()
}

// TestCaptionTextAboveTable: the last, short line of a paragraph that
// runs from a caption to the table is no header row.
func TestCaptionTextAboveTable(t *testing.T) {
	rows := [][]string{
		{"Correct answers", "Freq.", "Percent"},
		{"0", "138", "6.9"},
		{"1", "178", "8.8"},
		{"2", "626", "31.1"},
		{"3", "1070", "53.2"},
	}
	pg := page{}
	pg.Items = append(pg.Items, txt{X: 200, Y: 100, Size: 10, Bold: true, S: "Table 2: Financial literacy"})
	pg.Items = append(pg.Items, prose(72, 114,
		"This table gives the number and the share of respondents who could answer",
		"none to three of the questions.")...)
	pg.Items = append(pg.Items, tableRows(142, 12, []col{{72, false}, {260, true}, {340, true}}, rows, false)...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], rows)
}

// TestHeaderOverNumbers: header words centred over a column of
// right-aligned numbers, with a gap between them, head that column.
func TestHeaderOverNumbers(t *testing.T) {
	pg := page{}
	rows := [][]string{
		{"", "", ""},
		{"Male", "36", "16"},
		{"Female", "33", "270"},
		{"Other", "4", "1"},
	}
	pg.Items = append(pg.Items, tableRows(140, 13, []col{{72, false}, {230, true}, {400, true}}, rows, false)...)
	pg.Items = append(pg.Items,
		txt{X: 72, Y: 140, Size: 10, Bold: true, S: "Gender"},
		txt{X: 170 - helvWidth("Healthy")/2, Y: 140, Size: 10, Bold: true, S: "Healthy"},
		txt{X: 340 - helvWidth("Unhealthy")/2, Y: 140, Size: 10, Bold: true, S: "Unhealthy"})
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], [][]string{
		{"Gender", "Healthy", "Unhealthy"},
		{"Male", "36", "16"},
		{"Female", "33", "270"},
		{"Other", "4", "1"},
	})
}

// TestSideBySideTables: two tables of the same shape next to each other,
// a gutter between them wider than their column gaps, are two tables.
func TestSideBySideTables(t *testing.T) {
	a := [][]string{{"City", "Pop."}, {"Lyon", "522"}, {"Nice", "342"}, {"Lille", "236"}, {"Metz", "117"}}
	b := [][]string{{"River", "Length"}, {"Loire", "1,006"}, {"Seine", "777"}, {"Rhone", "812"}, {"Marne", "514"}}
	pg := page{}
	pg.Items = append(pg.Items, tableRows(140, 13, []col{{72, false}, {190, true}}, a, true)...)
	pg.Items = append(pg.Items, tableRows(140, 13, []col{{300, false}, {420, true}}, b, true)...)
	ts := detect(t, pg)
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	if ts[0].BBox.X0 > ts[1].BBox.X0 {
		ts[0], ts[1] = ts[1], ts[0]
	}
	wantCells(t, ts[0], a)
	wantCells(t, ts[1], b)
}

// TestRuledColumnsWrappedCells: a table with column rules and a header
// rule but no rules between body rows keeps wrapped cells whole.
func TestRuledColumnsWrappedCells(t *testing.T) {
	rows := [][]string{
		{"Project", "Agency", "Budget"},
		{"Nanotechnology and its", "NSF", "1,200"},
		{"publics", "", ""},
		{"Public deliberation in", "NSF", "950"},
		{"science policy", "", ""},
		{"Safety of materials", "EPA", "400"},
	}
	pg := page{Draw: []string{hline(70, 400, 130), hline(70, 400, 146), hline(70, 400, 210),
		vline(70, 130, 210), vline(230, 130, 210), vline(320, 130, 210), vline(400, 130, 210)}}
	pg.Items = append(pg.Items, tableRows(142, 12, []col{{74, false}, {234, false}, {396, true}}, rows[:1], true)...)
	pg.Items = append(pg.Items, tableRows(158, 11, []col{{74, false}, {234, false}, {396, true}}, rows[1:], false)...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], [][]string{
		{"Project", "Agency", "Budget"},
		{"Nanotechnology and its publics", "NSF", "1,200"},
		{"Public deliberation in science policy", "NSF", "950"},
		{"Safety of materials", "EPA", "400"},
	})
}

// TestRuledTablesSharingARule: two ruled tables drawn one on the other
// (the first one's bottom rule is the second one's top) with different
// column rules stay two tables.
func TestRuledTablesSharingARule(t *testing.T) {
	a := [][]string{{"Region", "Sales"}, {"North", "1,204"}, {"South", "2,310"}}
	b := [][]string{{"Product", "Units", "Price", "Margin"}, {"Pens", "120", "1.50", "20%"}, {"Ink", "80", "4.00", "35%"}}
	var pg page
	for _, y := range []float64{100, 120, 140, 160, 180, 200} {
		pg.Draw = append(pg.Draw, hline(72, 400, y))
	}
	pg.Draw = append(pg.Draw, vline(72, 100, 160), vline(250, 100, 160), vline(400, 100, 160))
	pg.Draw = append(pg.Draw, vline(72, 160, 220), vline(160, 160, 220), vline(240, 160, 220), vline(320, 160, 220), vline(400, 160, 220), hline(72, 400, 220))
	for i, r := range a {
		for j, c := range r {
			pg.Items = append(pg.Items, txt{X: []float64{76, 254}[j], Y: 114 + 20*float64(i), Size: 10, S: c})
		}
	}
	for i, r := range b {
		for j, c := range r {
			pg.Items = append(pg.Items, txt{X: []float64{76, 164, 244, 324}[j], Y: 174 + 20*float64(i), Size: 10, S: c})
		}
	}
	ts := detect(t, pg)
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	wantCells(t, ts[0], a)
	wantCells(t, ts[1], b)
}
