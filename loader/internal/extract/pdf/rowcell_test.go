package pdf

import (
	"fmt"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestNumberInARowIsNoPageNumber: a small table at a page's top or
// bottom, found by no detector (none here), keeps its first or last
// row's numbers ("31", "4") in their row: no PageNumber, the page's text
// in reading order from the head row. On pdf/112 they were PageNumber
// elements, moved to the front of the page ("31\n\n4\n\nTown ...").
// A page number beside a running head's text (nothing under it) stays
// one.
func TestNumberInARowIsNoPageNumber(t *testing.T) {
	row := func(y float64, cells ...string) []txt {
		var out []txt
		for i, c := range cells {
			out = append(out, txt{X: []float64{59, 90, 152}[i], Y: y, Size: 10, S: c})
		}
		return out
	}
	table := func(y float64) []txt {
		var out []txt
		for i, r := range [][]string{{"Town", "Rain (mm)", "Days"}, {"Ayr", "31", "4"}, {"Troon", "27", "3"}, {"Irvine", "40", "5"}} {
			out = append(out, row(y+float64(i)*12.75, r...)...)
		}
		return out
	}
	body := column(72, 300, "A paragraph of running text under the table, long enough to be the",
		"page's body, saying what the figures of the table are about.")
	for _, tc := range []struct {
		name  string
		items []txt
	}{
		{"top", append(table(68), body...)},
		{"bottom", append(body, table(745)...)},
	} {
		res := extract(t, []pg{{Items: tc.items}})
		for _, e := range res.Elements {
			if e.Category == document.PageNumber {
				t.Errorf("%s: %q is a PageNumber", tc.name, e.Text)
			}
		}
		text := res.Pages[0].Text
		if i, j := strings.Index(text, "Town"), strings.Index(text, "31"); i < 0 || j < i {
			t.Errorf("%s: the row's numbers out of order: %q", tc.name, text)
		}
	}
	// a running head with its page number: the number stays one
	var pages []pg
	for i := 1; i <= 3; i++ {
		items := []txt{{X: 72, Y: 40, Size: 9, S: "Annual report 2025"}, {X: 530, Y: 40, Size: 9, S: string(rune('0' + i))}}
		pages = append(pages, pg{Items: append(items, column(72, 90, "Body text of the page, a paragraph that goes on under the head.")...)})
	}
	res := extract(t, pages)
	if n := countCat(res, document.PageNumber); n != 3 {
		t.Errorf("running heads: %d page numbers, want 3", n)
	}
}

// TestTwoLineFooterPageNumber: a running footer of two lines, each of two
// parts ("Flood Review Ltd | Page 1" over "Registered ... |
// www.floodreview.org"), keeps its page number a PageNumber on every
// page and on a one-page document: text, not a number, stands under it
// (review41's MEDIUM on pdf/116: it was a table row's cell, body text on
// one page).
func TestTwoLineFooterPageNumber(t *testing.T) {
	for _, form := range []string{"Page %d", "%d"} {
		for _, n := range []int{1, 3} {
			var pages []pg
			for i := 1; i <= n; i++ {
				items := column(72, 90, "Body text of the page, a paragraph that goes on over the footer.")
				items = append(items,
					txt{X: 72, Y: 760, Size: 9, S: "Flood Review Ltd, 1 High Street, Ayr"},
					txt{X: 500, Y: 760, Size: 9, S: fmt.Sprintf(form, i)},
					txt{X: 72, Y: 771, Size: 9, S: "Registered in Scotland SC123456"},
					txt{X: 470, Y: 771, Size: 9, S: "www.floodreview.org"})
				pages = append(pages, pg{Items: items})
			}
			if got := countCat(extract(t, pages), document.PageNumber); got != n {
				t.Errorf("%q over %d pages: %d page numbers, want %d", form, n, got, n)
			}
		}
	}
}

// TestRunningFooterNumberRepeated: a page number that cellOfRow takes for
// a row's cell (a footer of three parts; one whose next line holds a
// number, "March 2024") but that sits in the same place on every page is
// the PageNumber (it was a Footer since pdf/116).
func TestRunningFooterNumberRepeated(t *testing.T) {
	for _, tc := range []struct {
		name  string
		items func(i int) []txt
	}{
		{"three parts", func(i int) []txt {
			return []txt{{X: 72, Y: 760, Size: 9, S: "Council minutes"}, {X: 280, Y: 760, Size: 9, S: "12 March 2024"},
				{X: 520, Y: 760, Size: 9, S: fmt.Sprint(i)}, {X: 72, Y: 771, Size: 9, S: "Draft for approval"},
				{X: 280, Y: 771, Size: 9, S: "Not for circulation"}, {X: 500, Y: 771, Size: 9, S: "Confidential"}}
		}},
		{"number under it", func(i int) []txt {
			return []txt{{X: 72, Y: 760, Size: 9, S: "Flood review 2024"}, {X: 520, Y: 760, Size: 9, S: fmt.Sprint(10 + i)},
				{X: 72, Y: 771, Size: 9, S: "Chapter 2: Damage to homes"}, {X: 490, Y: 771, Size: 9, S: "March 2024"}}
		}},
	} {
		var pages []pg
		for i := 1; i <= 3; i++ {
			items := column(72, 90, "Body text of the page, a paragraph that goes on over the footer.")
			pages = append(pages, pg{Items: append(items, tc.items(i)...)})
		}
		if got := countCat(extract(t, pages), document.PageNumber); got != 3 {
			t.Errorf("%s: %d page numbers, want 3", tc.name, got)
		}
	}
}

// TestOnePageRunningFooterNumber: on a one-page document (no other page
// to show the footer's place) a page number in a running footer or head
// of two lines, three parts a line or one whose other line holds a
// number ("March 2024"), is the PageNumber: no third row goes on against
// its two lines, as a table's rows would. On pdf/122 it was a row's cell
// (cellOfRow), NarrativeText in the page's body, chunks and search
// (review41's g5 one-page reproducers, Chromium-printed, lost it the same
// way). A table at the page's bottom keeps its numbers in its rows
// (TestNumberInARowIsNoPageNumber).
func TestOnePageRunningFooterNumber(t *testing.T) {
	for _, tc := range []struct {
		name, num string
		items     []txt
	}{
		{"three parts", "1", []txt{{X: 72, Y: 760, Size: 9, S: "Council minutes"}, {X: 300, Y: 760, Size: 9, S: "1"},
			{X: 480, Y: 760, Size: 9, S: "12 March 2024"}, {X: 72, Y: 771, Size: 9, S: "Draft for approval"},
			{X: 294, Y: 771, Size: 9, S: "of 1"}, {X: 470, Y: 771, Size: 9, S: "Not for circulation"}}},
		{"number under it", "Page 1", []txt{{X: 72, Y: 760, Size: 9, S: "Flood Review Ltd, 1 High Street, Ayr"},
			{X: 500, Y: 760, Size: 9, S: "Page 1"}, {X: 72, Y: 771, Size: 9, S: "Registered in Scotland SC123456"},
			{X: 490, Y: 771, Size: 9, S: "March 2024"}}},
		{"head, number under it", "12", []txt{{X: 72, Y: 30, Size: 9, S: "Flood review 2024"}, {X: 520, Y: 30, Size: 9, S: "12"},
			{X: 72, Y: 41, Size: 9, S: "Chapter 2: Damage to homes"}, {X: 490, Y: 41, Size: 9, S: "March 2024"}}},
	} {
		items := column(72, 90, "Body text of the page, a paragraph that goes on over the footer.")
		res := extract(t, []pg{{Items: append(items, tc.items...)}})
		var got []string
		for _, e := range res.Elements {
			if e.Category == document.PageNumber {
				got = append(got, e.Text)
			}
		}
		if len(got) != 1 || got[0] != tc.num {
			t.Errorf("%s: page numbers %q, want %q", tc.name, got, tc.num)
		}
	}
	// a table of a head and two rows at the page's top, its heads read as
	// one phrase (an unstyled web table in Liberation Sans, Chromium-
	// printed, the .html beside it: "Rank Club Points" over "1 |
	// Harriers64" over "2 | Rovers 58"): the head over the two rows makes
	// three, its "1" no PageNumber
	res, err := Extract(t.Context(), "testdata/unstyled-rank-top-3.pdf", opts)
	if err != nil {
		t.Fatal(err)
	}
	if n := countCat(res, document.PageNumber); n != 0 {
		t.Errorf("a head and two rows at the top: %d page numbers, want 0", n)
	}
}

// TestTwoRowFiguresAreNoPageNumbers: on a one-page document a block of
// two rows of label and figure in the page's top or bottom tenth ("Boxes
// shipped | 12" over "Pallets | 3", "Total due | 1,240" over "of which
// VAT | 248", "Signed | 7 | Witness" over "Room | 14 | Desk", "Invoice
// no. | 4711" over "Customer no. | 20931") keeps its figures as text: the
// row against each figure's line holds a number alone in its column, as
// a small table's rows do and a running footer's second line ("of 3",
// "March 2024", a year) does not. On pdf/129 (pdf/125's third-row rule)
// they were PageNumbers, out of chunks and search, two on one page
// (review42's MEDIUM on pdf/125).
func TestTwoRowFiguresAreNoPageNumbers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		items []txt
	}{
		{"bottom boxes", []txt{{X: 72, Y: 760, Size: 9, S: "Boxes shipped"}, {X: 300, Y: 760, Size: 9, S: "12"},
			{X: 72, Y: 771, Size: 9, S: "Pallets"}, {X: 300, Y: 771, Size: 9, S: "3"}}},
		{"bottom total", []txt{{X: 72, Y: 760, Size: 9, S: "Total due"}, {X: 500, Y: 760, Size: 9, S: "1,240"},
			{X: 72, Y: 771, Size: 9, S: "of which VAT"}, {X: 500, Y: 771, Size: 9, S: "248"}}},
		{"bottom signature", []txt{{X: 72, Y: 760, Size: 9, S: "Signed"}, {X: 300, Y: 760, Size: 9, S: "7"}, {X: 480, Y: 760, Size: 9, S: "Witness"},
			{X: 72, Y: 771, Size: 9, S: "Room"}, {X: 300, Y: 771, Size: 9, S: "14"}, {X: 480, Y: 771, Size: 9, S: "Desk"}}},
		{"top invoice", []txt{{X: 72, Y: 30, Size: 9, S: "Invoice no."}, {X: 520, Y: 30, Size: 9, S: "4711"},
			{X: 72, Y: 41, Size: 9, S: "Customer no."}, {X: 520, Y: 41, Size: 9, S: "20931"}}},
	} {
		items := column(72, 90, "Body text of the page, a paragraph that goes on over the footer.")
		res := extract(t, []pg{{Items: append(items, tc.items...)}})
		if n := countCat(res, document.PageNumber); n != 0 {
			t.Errorf("%s: %d page numbers, want 0", tc.name, n)
		}
	}
	// a running footer whose second line holds a year under the page
	// number stays one: "Flood Review Ltd | 3" over "Annual report | 2024"
	items := column(72, 90, "Body text of the page, a paragraph that goes on over the footer.")
	res := extract(t, []pg{{Items: append(items, txt{X: 72, Y: 760, Size: 9, S: "Flood Review Ltd"}, txt{X: 520, Y: 760, Size: 9, S: "3"},
		txt{X: 72, Y: 771, Size: 9, S: "Annual report"}, txt{X: 514, Y: 771, Size: 9, S: "2024"})}})
	if n := countCat(res, document.PageNumber); n != 1 {
		t.Errorf("a footer with a year under its page number: %d page numbers, want 1", n)
	}
}
