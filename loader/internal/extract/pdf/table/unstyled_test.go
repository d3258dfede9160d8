package table

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestUnstyledBrowserTables: an HTML table with no style of its own but
// collapsed borders, printed by Chromium, sets each column's widest cell
// 1.5pt (its 1px of padding each side) from the next column's text,
// narrower than a word space: "Troon 27" read as one phrase, the column
// seen only in its cells starting at one x. Found whole at the page's
// top (a paragraph right under it), bottom and middle, 4 to 6 rows, the
// numbers in the last column and the middle or the first one, in DejaVu
// Sans, DejaVu Serif, Liberation Sans and Liberation Serif (the .html beside each .pdf,
// printed with chromium --headless --no-pdf-header-footer
// --print-to-pdf). On pdf/112 none of them was found.
func TestUnstyledBrowserTables(t *testing.T) {
	rank := [][]string{{"Rank", "Club", "Points"}, {"1", "Harriers", "64"}, {"2", "Rovers", "58"}, {"3", "Albion", "51"}, {"4", "Thistle", "47"}, {"5", "Wanderers", "39"}}
	data := [][]string{{"Station", "Snow (cm)", "Frost days"}, {"Braemar", "62", "18"}, {"Aviemore", "48", "15"}, {"Tyndrum", "35", "11"}, {"Dalwhinnie", "71", "22"}, {"Kingussie", "40", "13"}}
	float := [][]string{{"Pier", "Boats", "Berths"}, {"North", "14", "22"}, {"Harbour", "9", "18"}, {"Quay", "21", "30"}, {"Slip", "6", "8"}}
	for _, tc := range []struct {
		file string
		want [][]string // the header row first
	}{
		{"unstyled-djn-top-4-rank.pdf", rank[:4]},
		{"unstyled-djs-top-6-rank.pdf", rank[:6]},
		{"unstyled-djn-bot-5-data.pdf", data[:5]},
		{"unstyled-lbs-mid-4-data.pdf", data[:4]},
		// at the page's top, heads wider than the numbers under them: the
		// head row, its heads 1.5pt apart, was taken for a running head
		// (wideHead counted its phrases by the gap alone: one phrase,
		// lined up with none) and dropped (pdf/116)
		{"unstyled-lbs-top-6-data.pdf", data[:6]},
		// no row stands a padding (0.55 of a size) after the cell
		// before its column: "Braemar" 5.3pt before "62" at 10pt,
		// "Aviemore" 1.5pt; a gap of 0.45 of a size, no word space,
		// starts a column's trial too (pdf/117 merged the two columns)
		{"unstyled-lbn-top-4-data.pdf", data[:4]},
		// floated right of paragraphs (DejaVu Serif): its head row
		// shares its line with the first paragraph's first line, which
		// the gutter's run did not start on (pdf/119 lost the head)
		{"unstyled-float-right.pdf", float},
	} {
		ts := detectFile(t, filepath.Join("testdata", tc.file))
		if len(ts) != 1 {
			t.Errorf("%s: %d tables, want 1", tc.file, len(ts))
			continue
		}
		got := append([][]string{ts[0].Header}, ts[0].Rows...)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.file, got, tc.want)
		}
	}
}
