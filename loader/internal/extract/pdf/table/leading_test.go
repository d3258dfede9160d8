package table

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// sessionRows: a schedule with a blank date cell ("Opening remarks" on
// the day of "12 April").
var sessionRows = [][]string{
	{"Date", "Session"},
	{"28 October", "Workshop A"},
	{"12 April", "Workshop A"},
	{"", "Opening remarks"},
	{"21 June", "Budget review"},
}

// TestBlankCellRowAtRowPitch: a tight web table (1-2px of padding) with
// a blank date cell: "Opening remarks" under "12 April | Workshop A" is
// capitalised and would not have fit beside "Workshop A", as a wrapped
// cell's next line would not, but it stands a row's pitch below it
// (15.5pt), where a cell's next line would stand at the page's leading
// (13pt, the paragraphs'): a row of its own (surround tune kd-5142,
// kd-5172: rows merged).
func TestBlankCellRowAtRowPitch(t *testing.T) {
	rows := sessionRows
	var pg page
	pg.Items = append(pg.Items, prose(72, 80,
		"The sessions of the autumn meeting, with the dates fixed so far by the",
		"committee; the rooms follow in the programme sent out next month. The",
		"opening remarks are given on the second day, after the first workshop,",
		"and the budget review closes the meeting as in earlier years, when the",
		"members can raise questions on the accounts before they are approved.")...)
	pg.Items = append(pg.Items, browserTable(72, 160, 10, 15.5, rows)...)
	pg.Items = append(pg.Items, prose(72, 250,
		"Members who cannot attend may send a written question to the secretary",
		"before the end of the month, and the answers are published with the",
		"minutes of the meeting on the association's pages for members only.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	if got := cellsOf(ts[0]); !reflect.DeepEqual(got, rows) {
		t.Errorf("cells:\n got %q\nwant %q", got, rows)
	}
}

// TestOpenEndedCellAtRowPitch: a cell's line ending mid-phrase ("or")
// goes on in the line under it, whatever its pitch (an IRS record
// layout: "Indicator: *PDT* or" over "Caution Indicator: *CAU*", its
// rows and a description's lines set at one pitch).
func TestOpenEndedCellAtRowPitch(t *testing.T) {
	rows := [][]string{
		{"Date", "Session"},
		{"28 October", "Workshop A"},
		{"12 April", "Workshop A or"},
		{"", "Opening remarks"},
		{"21 June", "Budget review"},
	}
	want := [][]string{rows[0], rows[1], {"12 April", "Workshop A or Opening remarks"}, rows[4]}
	var pg page
	pg.Items = append(pg.Items, prose(72, 80,
		"The sessions of the autumn meeting, with the dates fixed so far by the",
		"committee; the rooms follow in the programme sent out next month. The",
		"opening remarks are given on the second day, after the first workshop,",
		"and the budget review closes the meeting as in earlier years, when the",
		"members can raise questions on the accounts before they are approved.")...)
	pg.Items = append(pg.Items, browserTable(72, 160, 10, 15.5, rows)...)
	pg.Items = append(pg.Items, prose(72, 250,
		"Members who cannot attend may send a written question to the secretary",
		"before the end of the month, and the answers are published with the",
		"minutes of the meeting on the association's pages for members only.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	if got := cellsOf(ts[0]); !reflect.DeepEqual(got, want) {
		t.Errorf("cells:\n got %q\nwant %q", got, want)
	}
}

// TestRowPitchOnAPageOfLittleText: the page's leading is read where
// little running text stands around a table (a line of text, a
// two-line note, the table): its steps are mostly the table's rows
// (15.5pt), and the lower quartile of eight or more steps (or none,
// with fewer) took the rows' pitch for the leading. Two steps alike at
// the least pitch are the text's leading (13pt), so "Opening remarks"
// a row's pitch under "12 April | Workshop A" is a row of its own again
// (surround tune kd-5142: rows merged, cell 0.791).
func TestRowPitchOnAPageOfLittleText(t *testing.T) {
	rows := append(slices.Clone(sessionRows), [][]string{
		{"3 July", "Field report"},
		{"9 August", "Closing"},
		{"2 September", "Poster session"},
		{"4 October", "Panel discussion"},
	}...)
	pg := page{Items: prose(72, 80, "The sessions of the autumn meeting, with the dates fixed so far by the",
		"committee; the rooms follow in the programme sent out next month.")}
	pg.Items = append(pg.Items, browserTable(72, 120, 10, 15.5, rows)...)
	pg.Items = append(pg.Items, prose(72, 270, "Members who cannot attend may write to the secretary",
		"before the end of the month.")...)
	wantTable(t, pg, rows)
}

// TestPageLeading: the least step two steps share, over the lower
// quartile, and a leading from fewer than eight steps when two agree.
func TestPageLeading(t *testing.T) {
	at := func(ys ...float64) []*textLine {
		var ls []*textLine
		for _, y := range ys {
			ls = append(ls, &textLine{bb: document.BBox{X0: 72, Y0: y, X1: 300, Y1: y + 10}, size: 10})
		}
		return ls
	}
	for _, c := range []struct {
		name string
		ys   []float64
		want float64
	}{
		{"paragraphs", []float64{0, 13, 26, 39, 52, 65, 78, 91, 104, 130, 143}, 1.3},
		{"rows over two lines of text", []float64{0, 13, 26, 41.5, 57, 72.5, 88, 103.5, 119, 134.5, 150}, 1.3},
		{"few steps, two alike", []float64{0, 13, 26, 41.5}, 1.3},
		{"few steps, none alike", []float64{0, 13, 28.5, 45}, 0},
		{"no steps", []float64{0, 40}, 0},
	} {
		if got := pageLeading(at(c.ys...)); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: leading %.3f, want %.3f", c.name, got, c.want)
		}
	}
}

// TestRowPitchInABox: a web table with an outer border and no rule
// inside (surround tune kd-5186) is read on the ruled path, whose words
// the unruled scan never gave the page's leading: "| Opening remarks"
// a row's pitch (15.5pt) under "12 April | Workshop A", where the text
// stands 13pt apart, was read as more of its row.
func TestRowPitchInABox(t *testing.T) {
	pg := page{Items: prose(72, 80, "The sessions of the autumn meeting, with the dates fixed so far by the",
		"committee; the rooms follow in the programme sent out next month, and",
		"the opening remarks are given on the second day of the meeting.")}
	for i, r := range sessionRows {
		for j, c := range r {
			if c != "" {
				pg.Items = append(pg.Items, txt{X: 78 + 90*float64(j), Y: 140 + 15.5*float64(i), Size: 10, S: c})
			}
		}
	}
	pg.Draw = append(pg.Draw, hline(70, 270, 128), hline(70, 270, 206), vline(70, 128, 206), vline(270, 128, 206))
	pg.Items = append(pg.Items, prose(72, 230, "Members who cannot attend may write to the secretary",
		"before the end of the month.")...)
	wantTable(t, pg, sessionRows)
}

// TestRowPitchOnePixel: rows a browser's 1px of cell padding (0.8pt at
// 10pt) further apart than the text's lines (13pt): "| Opening remarks"
// 13.8pt under "12 April | Workshop A" is a row of its own, where a
// cell's next line would stand 13pt under it (surround tune kd-5002:
// "23 April" and "16 April per unit" were one row). The margin was 0.15
// of a size, 1.5pt: two pixels.
func TestRowPitchOnePixel(t *testing.T) {
	pg := page{Items: prose(72, 80, "The sessions of the autumn meeting, with the dates fixed so far by the",
		"committee; the rooms follow in the programme sent out next month, and",
		"the opening remarks are given on the second day of the meeting.")}
	pg.Items = append(pg.Items, browserTable(72, 130, 10, 13.8, sessionRows)...)
	pg.Items = append(pg.Items, prose(72, 210, "Members who cannot attend may write to the secretary",
		"before the end of the month, and the answers are published with the minutes.")...)
	wantTable(t, pg, sessionRows)
}
