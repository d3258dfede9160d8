package table

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

func detect(t *testing.T, pg page) []document.Table {
	t.Helper()
	return detectFile(t, writePDF(t, []page{pg}))
}

// detectFile: the tables of a PDF file's first page.
func detectFile(t *testing.T, name string) []document.Table {
	t.Helper()
	return New().DetectTables(firstLayout(t, name))
}

// firstLayout: a PDF file's first page, with words and vectors.
func firstLayout(t *testing.T, name string) *pdf.Layout {
	t.Helper()
	d, err := pdf.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	lay, err := d.PageWith(1, pdf.Words, true)
	if err != nil {
		t.Fatal(err)
	}
	return lay
}

func cellsOf(t document.Table) [][]string {
	var rows [][]string
	if len(t.Header) > 0 {
		rows = append(rows, t.Header)
	}
	return append(rows, t.Rows...)
}

// ruledPage draws a full grid with the given column and row edges and puts
// cell texts (row-major, "" for none) at each cell's top-left.
func ruledPage(xs, ys []float64, cells [][]string, fill bool) page {
	var pg page
	for _, y := range ys {
		if fill {
			pg.Draw = append(pg.Draw, fillRule(xs[0], y, xs[len(xs)-1]))
		} else {
			pg.Draw = append(pg.Draw, hline(xs[0], xs[len(xs)-1], y))
		}
	}
	for _, x := range xs {
		pg.Draw = append(pg.Draw, vline(x, ys[0], ys[len(ys)-1]))
	}
	for i, r := range cells {
		for j, c := range r {
			if c != "" {
				pg.Items = append(pg.Items, txt{X: xs[j] + 4, Y: ys[i] + 14, Size: 10, Bold: i == 0, S: c})
			}
		}
	}
	return pg
}

func TestRuledGrid(t *testing.T) {
	cells := [][]string{
		{"Country", "Sales", "Share"},
		{"France", "1,234", "12.5%"},
		{"Germany", "2 345", "(3.1)"},
		{"Italy", "987", "7%"},
	}
	for _, fill := range []bool{false, true} {
		t.Run(fmt.Sprintf("filled rules %v", fill), func(t *testing.T) {
			pg := ruledPage([]float64{72, 200, 300, 400}, []float64{100, 120, 140, 160, 180}, cells, fill)
			pg.Items = append(pg.Items, prose(72, 220, "Some narrative text below the table that is not part of it.")...)
			ts := detect(t, pg)
			if len(ts) != 1 {
				t.Fatalf("want 1 table, got %d: %+v", len(ts), ts)
			}
			tb := ts[0]
			if !reflect.DeepEqual(cellsOf(tb), cells) {
				t.Errorf("cells:\n got %q\nwant %q", cellsOf(tb), cells)
			}
			if !reflect.DeepEqual(tb.Header, cells[0]) {
				t.Errorf("header %q", tb.Header)
			}
			if tb.BBox.X0 < 70 || tb.BBox.X0 > 74 || tb.BBox.Y0 < 98 || tb.BBox.Y0 > 102 || tb.BBox.Y1 < 178 || tb.BBox.Y1 > 182 {
				t.Errorf("bbox %+v (top-left origin expected ~[72 100 400 180])", tb.BBox)
			}
		})
	}
}

func TestRuledSpansAndWrappedCells(t *testing.T) {
	xs := []float64{72, 200, 300, 400}
	ys := []float64{100, 120, 140, 175, 195}
	var pg page
	for _, y := range ys {
		pg.Draw = append(pg.Draw, hline(xs[0], xs[3], y))
	}
	// outer and first inner rule full height; the rule between columns
	// 1 and 2 is missing in the first row (a header spanning both).
	pg.Draw = append(pg.Draw, vline(72, 100, 195), vline(200, 100, 195), vline(400, 100, 195), vline(300, 120, 195))
	pg.Items = []txt{
		{X: 76, Y: 114, Size: 10, S: "Region"}, {X: 230, Y: 114, Size: 10, S: "Population"},
		{X: 204, Y: 134, Size: 10, S: "2020"}, {X: 304, Y: 134, Size: 10, S: "2021"},
		{X: 76, Y: 154, Size: 10, S: "North of the"}, {X: 76, Y: 167, Size: 10, S: "country"},
		{X: 204, Y: 154, Size: 10, S: "10.5"}, {X: 304, Y: 154, Size: 10, S: "11.0"},
		{X: 76, Y: 189, Size: 10, S: "South"}, {X: 204, Y: 189, Size: 10, S: "7.25"}, {X: 304, Y: 189, Size: 10, S: "7.5"},
	}
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d", len(ts))
	}
	want := [][]string{
		{"Region", "Population", ""},
		{"", "2020", "2021"},
		{"North of the country", "10.5", "11.0"},
		{"South", "7.25", "7.5"},
	}
	if got := cellsOf(ts[0]); !reflect.DeepEqual(got, want) {
		t.Errorf("cells:\n got %q\nwant %q", got, want)
	}
}

func unruledPage() page {
	var pg page
	pg.Items = append(pg.Items, prose(72, 80,
		"The following figures show how the budget was spent in the last three",
		"years, by department, in thousands of euro.")...)
	rows := [][]string{
		{"Department", "2021", "2022", "2023"},
		{"Education", "1 200", "1 350", "1 410"},
		{"Health", "980", "1 020", "1 100"},
		{"Transport", "450", "470", "-"},
		{"Total", "2 630", "2 840", "2 510"},
	}
	for i, r := range rows {
		y := 140 + float64(i)*14
		pg.Items = append(pg.Items, txt{X: 72, Y: y, Size: 10, Bold: i == 0, S: r[0]})
		for j, c := range r[1:] {
			// right-aligned numbers: approximate by right edge at 260+90j
			x := 260 + 90*float64(j) - 5.56*float64(len(c))
			pg.Items = append(pg.Items, txt{X: x, Y: y, Size: 10, Bold: i == 0, S: c})
		}
	}
	pg.Items = append(pg.Items, prose(72, 240,
		"Spending grew in every department but transport, where the figures for",
		"the last year are not yet known.")...)
	return pg
}

func TestUnruledNumericTable(t *testing.T) {
	ts := detect(t, unruledPage())
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %+v", len(ts), ts)
	}
	tb := ts[0]
	want := [][]string{
		{"Department", "2021", "2022", "2023"},
		{"Education", "1 200", "1 350", "1 410"},
		{"Health", "980", "1 020", "1 100"},
		{"Transport", "450", "470", "-"},
		{"Total", "2 630", "2 840", "2 510"},
	}
	if got := cellsOf(tb); !reflect.DeepEqual(got, want) {
		t.Errorf("cells:\n got %q\nwant %q", got, want)
	}
	if len(tb.Header) == 0 || tb.Header[0] != "Department" {
		t.Errorf("header %q", tb.Header)
	}
	if tb.BBox.Y0 < 125 || tb.BBox.Y1 > 205 {
		t.Errorf("bbox %+v should hold only the table lines", tb.BBox)
	}
}

func TestNoFalseTables(t *testing.T) {
	left := prose(72, 100,
		"Two columns of running text are not a table even though their lines",
		"sit side by side at the same heights all the way down the page and",
		"leave a wide gutter between them, which looks like a column gap to a",
		"naive detector that only counts whitespace between words on a line.",
		"The lines are long and hold words, not numbers.")
	right := prose(320, 100,
		"The right column continues the argument with more sentences that",
		"are just as long as those on the left, so every line of the page",
		"has exactly two segments separated by the gutter, which is what an",
		"unruled table looks like too, apart from the content of the cells.",
		"Nothing here is numeric.")
	framed := page{
		Draw:  []string{hline(72, 540, 300), hline(72, 540, 360), vline(72, 300, 360), vline(540, 300, 360)},
		Items: prose(80, 318, "A boxed note: a frame around a paragraph is not a table either,", "even though it is drawn with two horizontal and two vertical rules.", "It has one cell only."),
	}
	chartPage := page{Items: []txt{{X: 60, Y: 104, Size: 8, S: "400"}, {X: 60, Y: 144, Size: 8, S: "300"}, {X: 60, Y: 184, Size: 8, S: "200"}, {X: 60, Y: 224, Size: 8, S: "100"}}}
	for _, y := range []float64{100, 140, 180, 220} {
		chartPage.Draw = append(chartPage.Draw, hline(80, 400, y))
	}
	chartPage.Draw = append(chartPage.Draw, vline(80, 100, 220), vline(400, 100, 220),
		"1 w 80 592 m 120 630 l 160 610 l 200 660 l 240 640 l 280 680 l 320 650 l 360 690 l 400 670 l S")
	for name, pg := range map[string]page{
		"two columns": {Items: append(left, right...)},
		"framed note": framed,
		"line chart":  chartPage,
	} {
		t.Run(name, func(t *testing.T) {
			if ts := detect(t, pg); len(ts) != 0 {
				t.Errorf("want no table, got %d: %q", len(ts), cellsOf(ts[0]))
			}
		})
	}
}

// TestExtractorPlugIn: through pdf.Extractor the table becomes one Table
// element and its text does not flow into narrative elements.
func TestExtractorPlugIn(t *testing.T) {
	path := writePDF(t, []page{unruledPage()})
	res, err := pdf.Extractor{Tables: New()}.Extract(context.Background(), path, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tables) != 1 || res.Tables[0].Page != 1 {
		t.Fatalf("tables: %+v", res.Tables)
	}
	nTable := 0
	for _, el := range res.Elements {
		if el.Category == document.TableCat {
			nTable++
			if el.TableSeq != 0 || !strings.Contains(el.Text, "Education | 1 200") {
				t.Errorf("table element %+v", el)
			}
			continue
		}
		if strings.Contains(el.Text, "Education") || strings.Contains(el.Text, "2 630") {
			t.Errorf("table text leaked into %s element %q", el.Category, el.Text)
		}
	}
	if nTable != 1 {
		t.Errorf("want 1 Table element, got %d", nTable)
	}
	if !strings.Contains(res.Pages[0].Text, "budget was spent") || !strings.Contains(res.Pages[0].Text, "Spending grew") {
		t.Errorf("narrative text lost: %q", res.Pages[0].Text)
	}
}

func TestNumeric(t *testing.T) {
	for s, want := range map[string]bool{
		"1,234": true, "1 234": true, "12.5%": true, "(3.1)": true, "-4": true, "0,75": true, "€12": true,
		"2020": true, "abc": false, "": false, "12 apples": false, "1a": false,
		// footnote marks after a number
		"$26,244,910(1)": true, "78.2% (e)": true, "631*": true, "45.1 (p)": true, "12**": true,
		"(1)": true, "(p)": false, "see (1)": false, "12 (note)": false,
	} {
		if got := numeric(s); got != want {
			t.Errorf("numeric(%q) = %v", s, got)
		}
	}
	for _, s := range []string{"-", ":", "n.a.", "..."} {
		if !placeholder(s) {
			t.Errorf("placeholder(%q) = false", s)
		}
	}
}

func TestMergeRules(t *testing.T) {
	got := mergeRules([]rule{{100, 10, 50}, {100.5, 51, 90}, {100, 200, 250}, {140, 10, 90}})
	y := (100 + 100.5 + 100) / 3.0
	want := []rule{{y, 10, 90}, {y, 200, 250}, {140, 10, 90}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v want %v", got, want)
	}
}

func TestCellTextLeaders(t *testing.T) {
	ws := []*word{
		{bb: bbox(10, 10, 30, 20), text: "Item", size: 10},
		{bb: bbox(32, 10, 80, 20), text: "........", size: 10},
		{bb: bbox(82, 10, 90, 20), text: "12", size: 10},
		{bb: bbox(10, 22, 30, 32), text: "next", size: 10},
	}
	if got := cellText(ws); got != "Item 12 next" {
		t.Errorf("cellText = %q", got)
	}
}

func bbox(x0, y0, x1, y1 float64) document.BBox {
	return document.BBox{X0: x0, Y0: y0, X1: x1, Y1: y1}
}
