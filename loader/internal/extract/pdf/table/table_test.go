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
	d, err := pdf.Open(writePDF(t, []page{pg}))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	lay, err := d.PageWith(1, true, true)
	if err != nil {
		t.Fatal(err)
	}
	return New().DetectTables(lay)
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
			pg.draw = append(pg.draw, fillRule(xs[0], y, xs[len(xs)-1]))
		} else {
			pg.draw = append(pg.draw, hline(xs[0], xs[len(xs)-1], y))
		}
	}
	for _, x := range xs {
		pg.draw = append(pg.draw, vline(x, ys[0], ys[len(ys)-1]))
	}
	for i, r := range cells {
		for j, c := range r {
			if c != "" {
				pg.items = append(pg.items, txt{x: xs[j] + 4, y: ys[i] + 14, size: 10, bold: i == 0, s: c})
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
			pg.items = append(pg.items, prose(72, 220, "Some narrative text below the table that is not part of it.")...)
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
		pg.draw = append(pg.draw, hline(xs[0], xs[3], y))
	}
	// outer and first inner rule full height; the rule between columns
	// 1 and 2 is missing in the first row (a header spanning both).
	pg.draw = append(pg.draw, vline(72, 100, 195), vline(200, 100, 195), vline(400, 100, 195), vline(300, 120, 195))
	pg.items = []txt{
		{x: 76, y: 114, size: 10, s: "Region"}, {x: 230, y: 114, size: 10, s: "Population"},
		{x: 204, y: 134, size: 10, s: "2020"}, {x: 304, y: 134, size: 10, s: "2021"},
		{x: 76, y: 154, size: 10, s: "North of the"}, {x: 76, y: 167, size: 10, s: "country"},
		{x: 204, y: 154, size: 10, s: "10.5"}, {x: 304, y: 154, size: 10, s: "11.0"},
		{x: 76, y: 189, size: 10, s: "South"}, {x: 204, y: 189, size: 10, s: "7.25"}, {x: 304, y: 189, size: 10, s: "7.5"},
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
	pg.items = append(pg.items, prose(72, 80,
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
		pg.items = append(pg.items, txt{x: 72, y: y, size: 10, bold: i == 0, s: r[0]})
		for j, c := range r[1:] {
			// right-aligned numbers: approximate by right edge at 260+90j
			x := 260 + 90*float64(j) - 5.56*float64(len(c))
			pg.items = append(pg.items, txt{x: x, y: y, size: 10, bold: i == 0, s: c})
		}
	}
	pg.items = append(pg.items, prose(72, 240,
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
		draw:  []string{hline(72, 540, 300), hline(72, 540, 360), vline(72, 300, 360), vline(540, 300, 360)},
		items: prose(80, 318, "A boxed note: a frame around a paragraph is not a table either,", "even though it is drawn with two horizontal and two vertical rules.", "It has one cell only."),
	}
	chartPage := page{items: []txt{{x: 60, y: 104, size: 8, s: "400"}, {x: 60, y: 144, size: 8, s: "300"}, {x: 60, y: 184, size: 8, s: "200"}, {x: 60, y: 224, size: 8, s: "100"}}}
	for _, y := range []float64{100, 140, 180, 220} {
		chartPage.draw = append(chartPage.draw, hline(80, 400, y))
	}
	chartPage.draw = append(chartPage.draw, vline(80, 100, 220), vline(400, 100, 220),
		"1 w 80 592 m 120 630 l 160 610 l 200 660 l 240 640 l 280 680 l 320 650 l 360 690 l 400 670 l S")
	for name, pg := range map[string]page{
		"two columns": {items: append(left, right...)},
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
