package table

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// rightTable lays rows out as a browser lays out a table in its default
// CSS whose cells after the first are right-aligned (text-align:right):
// each column 3pt after the widest cell of the one before, the first
// column's cells flush left, the others' flush right.
func rightTable(x, y, size, pitch float64, rows [][]string) []txt {
	starts, widths := browserColumns(x, size, rows)
	var out []txt
	for i, r := range rows {
		for j, c := range r {
			if c == "" {
				continue
			}
			cx := starts[j]
			if j > 0 {
				cx += widths[j] - afmWidth(c, size)
			}
			out = append(out, txt{X: cx, Y: y + float64(i)*pitch, Size: size, S: c})
		}
	}
	return out
}

// TestFigureColumnsApart: a statement in a browser's default table CSS,
// its amounts right-aligned 3pt (2px of border spacing, 1px of padding
// each side) from the column before, is found with its columns: a column
// of figures ending at one x starts the next column's phrase after it
// ("667,131 32,844.29" was one phrase, and the table was not found).
func TestFigureColumnsApart(t *testing.T) {
	rows := [][]string{
		{"Description", "2021", "2020", "2019"},
		{"Cost of sales", "", "1,683,463", "797,471"},
		{"Net finance costs", "1,103,672", "796,320", "160,952"},
		{"Trade and other receivables", "667,131", "32,844.29", "93,301.97"},
		{"Other operating income", "81,242", "404,956.38", "2,443,428"},
		{"Net result", "291,900", "1,040,296", "2,381,020.58"},
	}
	var pg page
	pg.Items = append(pg.Items, prose(72, 80,
		"The group's results for the last three years, as reported in the annual",
		"accounts; amounts in thousands of Swiss francs.")...)
	pg.Items = append(pg.Items, rightTable(72, 130, 10, 13.5, rows)...)
	pg.Items = append(pg.Items, prose(72, 230,
		"Net finance costs fell in 2021 as the group repaid part of its borrowings,",
		"while other operating income rose with the sale of two sites.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %+v", len(ts), ts)
	}
	if got := cellsOf(ts[0]); !reflect.DeepEqual(got, rows) {
		t.Errorf("cells:\n got %q\nwant %q", got, rows)
	}
}

// TestDigitGroupsNoColumn: numbers with their digit groups a space apart
// ("12 345"), set flush right, their groups' ends lined up, are no
// columns of figures: each stays one cell.
func TestDigitGroupsNoColumn(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{{"12", "345", true}, {"(1", "234)", true}, {"1", "234,5", true}, {"1,234", "567", false}, {"12.5", "345", false}, {"1234", "567", false}} {
		if got := digitGroup(c.a, c.b); got != c.want {
			t.Errorf("digitGroup(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

// The styles set's tune page 7038 (eval-tables): its last table, in the
// default CSS with figures right-aligned 3pt apart, is found with its
// year columns apart.
func TestFigureColumnsStyles(t *testing.T) {
	for _, tb := range detectFile(t, filepath.Join("testdata", "styles-7038.pdf")) {
		for _, r := range cellsOf(tb) {
			if len(r) > 0 && r[0] == "Net finance costs" {
				if got := strings.Join(r, "|"); got != "Net finance costs|1,103,672|796,320|160,952" {
					t.Errorf("row %q", got)
				}
				return
			}
		}
	}
	t.Fatal("the table of net finance costs was not found")
}

// TestListMarkersNoFigureColumn: an ordered list's numbers set flush
// right (a browser's list markers, "9." over "10."), each a word space
// before its item's text, are no column of figures: a word after a
// number is the number's entry (figureGap asks for a figure or a
// currency after it), and the list is no table.
func TestListMarkersNoFigureColumn(t *testing.T) {
	items := []string{"Inspection of all sites", "Budget review", "Approval by the board", "Report to the committee",
		"Training for new staff", "Tender documents", "Risk register", "Final audit", "Site visit", "Annex B updated",
		"Deadline moved", "Contact updated"}
	var pg page
	for i, it := range items {
		m := fmt.Sprintf("%d.", i+1)
		y := 100 + float64(i)*13.5
		pg.Items = append(pg.Items, txt{X: 90 - afmWidth(m, 10), Y: y, Size: 10, S: m}, txt{X: 93, Y: y, Size: 10, S: it})
	}
	if ts := detect(t, pg); len(ts) != 0 {
		t.Errorf("a list read as %d tables: %q", len(ts), cellsOf(ts[0]))
	}
}
