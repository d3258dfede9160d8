package tablegen

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// valueRe is a line naming a field's value: "1 = filed", "X - exempt",
// "01-99: yes", "R -- late".
var valueRe = regexp.MustCompile(`\S{1,6}( = | -- | - |: )`)

// TestSublines: the sublines layout writes one table whose description
// cells (its last column) hold, on some rows, the lines naming the
// field's values after the description; each such line is drawn on the
// page under the row's first line, inside the table's box; the code
// columns are filled on every row; and the pages vary the indent.
func TestSublines(t *testing.T) {
	indents := map[float64]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		d, err := GenerateLayout(seed, "sublines")
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Tables) != 1 {
			t.Fatalf("seed %d: %d tables, want 1", seed, len(d.Tables))
		}
		tb := d.Tables[0]
		last := 0
		for _, c := range tb.Cells {
			last = max(last, c.C0)
		}
		with := 0
		for _, c := range tb.Cells {
			if c.R0 == 0 {
				continue
			}
			if c.Text == "" {
				t.Errorf("seed %d: an empty cell at row %d column %d", seed, c.R0, c.C0)
			}
			if c.C0 != last {
				continue
			}
			parts := valueRe.FindAllStringIndex(c.Text, -1)
			if len(parts) == 0 {
				continue
			}
			with++
			first := c.Text[parts[0][0]:parts[0][1]]
			ys := shown(d.PDF, first)
			if len(ys) == 0 {
				t.Errorf("seed %d: value line %q of row %d not drawn", seed, first, c.R0)
				continue
			}
			in := false
			for _, y := range ys {
				in = in || y > tb.BBox.Y0 && y <= tb.BBox.Y1+1
			}
			if !in {
				t.Errorf("seed %d: value line %q at %v outside the table %v", seed, first, ys, tb.BBox)
			}
			desc := strings.TrimSpace(c.Text[:parts[0][0]])
			if dx, vx := xs(d.PDF, desc), xs(d.PDF, first); len(dx) > 0 && len(vx) > 0 {
				indents[math.Round(vx[0]-dx[0])] = true
			}
		}
		if with == 0 {
			t.Errorf("seed %d: no description goes on with value lines", seed)
		}
	}
	if len(indents) < 3 {
		t.Errorf("value lines indented under their description by %v only in 20 pages", indents)
	}
}

// xs are the x positions of the strings the page shows starting with
// prefix.
func xs(pdf []byte, prefix string) []float64 {
	re := regexp.MustCompile(`BT ([0-9.]+) [0-9.]+ Td \(` + regexp.QuoteMeta(prefix))
	var out []float64
	for _, m := range re.FindAllSubmatch(pdf, -1) {
		x, _ := strconv.ParseFloat(string(m[1]), 64)
		out = append(out, x)
	}
	return out
}

// TestRunningHeadOverTable: the runhead layout writes its running head
// (a page number at one edge of the text column) over the page's one
// table, outside its box and its truth, and the table starts within 60pt
// of the head on most pages.
func TestRunningHeadOverTable(t *testing.T) {
	close := 0
	for seed := uint64(1); seed <= 20; seed++ {
		d, err := GenerateLayout(seed, "runhead")
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Tables) != 1 {
			t.Fatalf("seed %d: %d tables, want 1", seed, len(d.Tables))
		}
		var ys []float64
		for _, m := range d.Furniture {
			if len(xs(d.PDF, pdfText(m.Text))) == 0 {
				t.Errorf("seed %d: head part %q not shown", seed, m.Text)
			}
			ys = append(ys, m.Base)
		}
		tb := d.Tables[0]
		head := math.Inf(1)
		for _, y := range ys {
			head = math.Min(head, y)
		}
		if math.IsInf(head, 1) || head >= tb.BBox.Y0 {
			t.Fatalf("seed %d: no running head over the table (%v, table top %.1f)", seed, ys, tb.BBox.Y0)
		}
		for _, c := range tb.Cells {
			for _, m := range d.Furniture {
				if c.Text == m.Text {
					t.Errorf("seed %d: the head's %q in the truth", seed, m.Text)
				}
			}
		}
		if tb.BBox.Y0-head < 60 {
			close++
		}
	}
	if close < 10 {
		t.Errorf("%d of 20 tables within 60pt of the running head", close)
	}
}

// TestSublinesLongAndWrapped: in 40 sublines pages, some description goes
// on with 4 or more value lines, some last row's does, and some value's
// meaning goes on on a line of its own (drawn on the page, in the cell's
// truth after its value line, set right of the value lines' start).
func TestSublinesLongAndWrapped(t *testing.T) {
	long, lastLong, wrapped := 0, 0, 0
	for seed := uint64(1); seed <= 40; seed++ {
		d, err := GenerateLayout(seed, "sublines")
		if err != nil {
			t.Fatal(err)
		}
		tb := d.Tables[0]
		lastCol, lastRow := 0, 0
		for _, c := range tb.Cells {
			lastCol, lastRow = max(lastCol, c.C0), max(lastRow, c.R0)
		}
		for _, c := range tb.Cells {
			if c.C0 != lastCol || c.R0 == 0 {
				continue
			}
			parts := valueRe.FindAllStringIndex(c.Text, -1)
			if len(parts) >= 4 {
				long++
				if c.R0 == lastRow {
					lastLong++
				}
			}
			for _, m := range moreWords {
				if i := strings.Index(c.Text, " "+m); i > 0 && len(parts) > 0 && parts[0][0] < i {
					vx, mx := xs(d.PDF, c.Text[parts[0][0]:parts[0][1]]), xs(d.PDF, m)
					if len(vx) == 0 || len(mx) == 0 || mx[0] <= vx[0] {
						t.Errorf("seed %d: %q not drawn right of its value line (%v, %v)", seed, m, vx, mx)
					}
					wrapped++
				}
			}
		}
	}
	if long < 3 || lastLong < 1 || wrapped < 3 {
		t.Errorf("in 40 pages: %d descriptions with 4+ value lines (%d in a last row), %d meanings going on: want 3, 1, 3", long, lastLong, wrapped)
	}
}
