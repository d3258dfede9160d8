package table

import (
	"reflect"
	"testing"
)

// TestBlankCellRowAtRowPitch: a tight web table (1-2px of padding) with
// a blank date cell: "Opening remarks" under "12 April | Workshop A" is
// capitalised and would not have fit beside "Workshop A", as a wrapped
// cell's next line would not, but it stands a row's pitch below it
// (15.5pt), where a cell's next line would stand at the page's leading
// (13pt, the paragraphs'): a row of its own (surround tune kd-5142,
// kd-5172: rows merged).
func TestBlankCellRowAtRowPitch(t *testing.T) {
	rows := [][]string{
		{"Date", "Session"},
		{"28 October", "Workshop A"},
		{"12 April", "Workshop A"},
		{"", "Opening remarks"},
		{"21 June", "Budget review"},
	}
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
