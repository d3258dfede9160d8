package table

import (
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// centredTable lays rows out as a browser lays out a table whose cells
// are vertically centred (CSS vertical-align: middle, the default): each
// cell's lines (split on "/") centred in its row, the row as tall as its
// tallest cell, rows gap apart, the columns starting at xs. The first
// row is set bold (the heads).
func centredTable(xs []float64, y, size, leading, gap float64, rows [][]string) []txt {
	var out []txt
	for i, r := range rows {
		n := 0
		for _, c := range r {
			n = max(n, len(strings.Split(c, "/")))
		}
		h := float64(n) * leading
		for j, c := range r {
			ls := strings.Split(c, "/")
			top := y + (h-float64(len(ls))*leading)/2
			for k, l := range ls {
				out = append(out, txt{X: xs[j], Y: top + float64(k)*leading, Size: size, Bold: i == 0, S: l})
			}
		}
		y += h + gap
	}
	return out
}

// TestCentredRows: a table of words (no number in it) whose cells are
// vertically centred in rows of one to three lines is found, one row per
// table row: a one-line cell stands level with the middle line of a
// three-line one, and half a line below the first line of a two-line one,
// so no line of the page holds a row's first line of every cell, and the
// lines of neighbouring cells interleave (realhtml's cookie tables:
// islamische-zeitung, "not found" before).
func TestCentredRows(t *testing.T) {
	rows := [][]string{
		{"Cookie", "Duration", "Description"},
		{"session_mid", "one year", "Set by the payment gateway to enable payment/on the website without storing any information."},
		{"consent-/checkbox-/analytics", "one year", "Set by the consent plugin to record the choice/of the user for the analytics category."},
		{"consent-/checkbox-/functional", "session", "Set by the consent plugin, to record the user/consent for the functional category of the/cookies of this website."},
		{"player-id", "never", "Stores the video preferences of the user."},
		{"consent-/checkbox-/others", "one year", "Set by the consent plugin to store the choice/of the user for the other categories."},
	}
	var pg page
	pg.Items = append(pg.Items, prose(72, 80,
		"The website uses the following cookies, each set for the time given in",
		"the table; the description says who sets it and what it is used for.")...)
	pg.Items = append(pg.Items, centredTable([]float64{72, 150, 210}, 120, 10, 11.5, 4, rows)...)
	pg.Items = append(pg.Items, prose(72, 400,
		"You can withdraw your consent at any time in the settings of the page,",
		"after which the cookies of the categories you refuse are removed.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %+v", len(ts), ts)
	}
	var want [][]string
	for _, r := range rows {
		var w []string
		for _, c := range r {
			w = append(w, strings.ReplaceAll(c, "/", " "))
		}
		want = append(want, w)
	}
	if got := cellsOf(ts[0]); !reflect.DeepEqual(got, want) {
		t.Errorf("cells:\n got %q\nwant %q", got, want)
	}
}

// TestNoteBesideColumnOfRows: a one-line note beside a table, centred by
// chance on the table's second column (its rows set at the leading with
// wrapped cells, so the column is one block), is no cell of a centred
// row: the two tables of the page are both found, the left one with all
// its rows (tablegen seed 13034, read as one row under the note before).
func TestNoteBesideColumnOfRows(t *testing.T) {
	doc, ts := detectGenerated(t, 13034, "textpair")
	if len(doc.Tables) != 2 {
		t.Fatalf("the page has %d truth tables, want 2", len(doc.Tables))
	}
	if len(ts) != 2 {
		t.Fatalf("want 2 tables, got %d: %s", len(ts), dump(ts))
	}
	left := ts[0]
	if ts[1].BBox.X0 < left.BBox.X0 {
		left = ts[1]
	}
	if got, want := len(cellsOf(left)), truthRows(doc.Tables[0]); got < want-1 {
		t.Errorf("left table: %d rows, want %d (the head may be one row with the first): %s", got, want, dump([]document.Table{left}))
	}
}
