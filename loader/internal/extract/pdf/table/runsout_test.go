package table

import (
	"reflect"
	"testing"
)

// TestParagraphLineOverRuledTable: a table ruled at the top of each body
// row, set tight under a paragraph at its own leading: the paragraph's
// last line runs on past the table's right edge, so the part of it over
// the table is no head row ("follow management ... table" joined to
// "Date Session Speaker"; laid out as hard tune kd-3016).
func TestParagraphLineOverRuledTable(t *testing.T) {
	want := [][]string{
		{"Date", "Session", "Speaker"},
		{"23 April", "Field report", "Ms Kowalska"},
		{"21 April", "Closing", "Mr Boateng"},
		{"25 October all regions", "Workshop A second site", "Dr Silva"},
		{"15 March to be confirmed excl. VAT", "Poster session", "Ms Kowalska"},
		{"2 April", "Opening remarks", "Prof. Ito"},
	}
	var pg page
	at := func(x, top float64, s string) {
		pg.Items = append(pg.Items, txt{X: x, Y: top + 9, Size: 10.5, S: s})
	}
	at(42, 48.6, "Dividend reference treatment table difference company terms customers investment energy demand")
	at(42, 60.6, "the due during. Route compared table energy further mainly below programme equity costs values.")
	at(42, 72.6, "follow management within invoice shown margin table follow values days liabilities terms route.")
	cells := []struct {
		x, top float64
		s      string
	}{
		{46.5, 85.4, "Date"}, {131.3, 85.4, "Session"}, {223.5, 85.4, "Speaker"},
		{46.5, 99.6, "23 April"}, {131.3, 99.6, "Field report"}, {223.5, 99.6, "Ms Kowalska"},
		{46.5, 113.9, "21 April"}, {131.3, 113.9, "Closing"}, {223.5, 113.9, "Mr Boateng"},
		{46.5, 128.1, "25 October"}, {131.3, 128.1, "Workshop A"}, {223.5, 128.1, "Dr Silva"},
		{46.5, 140.1, "all regions"}, {131.3, 140.1, "second site"},
		{46.5, 155.1, "15 March"}, {131.3, 155.1, "Poster session"}, {223.5, 155.1, "Ms Kowalska"},
		{46.5, 167.1, "to be confirmed"}, {46.5, 179.1, "excl. VAT"},
		{46.5, 193.4, "2 April"}, {131.3, 193.4, "Opening remarks"}, {223.5, 193.4, "Prof. Ito"},
	}
	for _, c := range cells {
		at(c.x, c.top, c.s)
	}
	for _, y := range []float64{99.0, 113.2, 127.5, 154.5, 192.8, 207.0} {
		pg.Draw = append(pg.Draw, hline(42, 291.8, y))
	}
	at(42, 207.6+3, "Lower programme further groups lower tax groups equity were invoice apply account results.")
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	if got := cellsOf(ts[0]); !reflect.DeepEqual(got, want) {
		t.Errorf("cells:\n got %q\nwant %q", got, want)
	}
}
