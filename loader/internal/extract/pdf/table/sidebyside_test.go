package table

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestTightTablesSideBySide: a browser's unstyled table (1px padding,
// collapsed borders: each column's widest cell 1.5pt from the next) under
// a paragraph, with another one floated beside it (16px margin), their
// rows on one pitch. Both stay tables of their own, column for column
// (tightSides), and the paragraph's short last line above them is no
// head row (paragraphTail: the paragraph's 11pt lines at its own pitch
// over the tables' 10pt rows). review41's reproducer (intro: float right
// of a plain table) and Chromium-printed variants (float left or right,
// DejaVu Sans or Serif, Liberation Sans, 3 to 5 rows, head rows or none;
// the .html beside each .pdf). On pdf/122 each was one table of both
// (intro: "would until." its head row, taken out of the paragraph).
func TestTightTablesSideBySide(t *testing.T) {
	town := [][]string{{"Town", "Rain (mm)", "Days"}, {"Ayr", "31", "4"}, {"Troon", "27", "3"}, {"Irvine", "40", "5"}, {"Largs", "22", "2"}}
	year := [][]string{{"Year", "Homes"}, {"2021", "120"}, {"2022", "340"}, {"2023", "95"}, {"2024", "210"}}
	pier := [][]string{{"Pier", "Boats", "Berths", "Staff"}, {"North", "14", "22", "3"}, {"Harbour", "9", "18", "2"}, {"Quay", "21", "30", "5"}}
	for _, tc := range []struct {
		file string
		want [][][]string // top to bottom, left to right; the head row first
	}{
		{"sidebyside-intro.pdf", [][][]string{year[:4], town[:4]}},
		{"sidebyside-left-djn.pdf", [][][]string{pier[:3], year[1:5]}},
		{"sidebyside-left-djs.pdf", [][][]string{town[1:5], year}},
		{"sidebyside-right-djn.pdf", [][][]string{year, town}},
		{"sidebyside-right-lbs.pdf", [][][]string{year[:4], pier}},
	} {
		ts := detectFile(t, filepath.Join("testdata", tc.file))
		var got [][][]string
		for _, tb := range ts {
			got = append(got, cellsOf(tb))
		}
		if len(got) == 2 && got[0][0][0] != tc.want[0][0][0] {
			got[0], got[1] = got[1], got[0] // level tops: either order
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.file, got, tc.want)
		}
	}
}

// TestParagraphTailOverTightTables: the paragraph's last line ("...
// boil finished bank works.", 11pt at 1.35) right above two tables set
// at 10pt, closer to their first row than to the paragraph's line above
// it, is the paragraph's (its own pitch), no head row of a table. The
// tables stay merged here (Liberation Serif: "2021120", no space at the
// gap); on pdf/122 that merged table had the line as its head.
func TestParagraphTailOverTightTables(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "sidebyside-left-lbr.pdf"))
	if len(ts) == 0 {
		t.Fatal("no table")
	}
	for _, tb := range ts {
		for _, r := range cellsOf(tb) {
			if s := strings.Join(r, " "); strings.Contains(s, "works.") || strings.Contains(s, "bank") {
				t.Errorf("the paragraph's last line in a table: %q", r)
			}
		}
	}
}
