package tablegen

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// shown are the baselines (top-left origin) of the strings the page
// shows starting with prefix.
func shown(pdf []byte, prefix string) []float64 {
	re := regexp.MustCompile(`BT [0-9.]+ ([0-9.]+) Td \(` + regexp.QuoteMeta(prefix))
	var ys []float64
	for _, m := range re.FindAllSubmatch(pdf, -1) {
		y, _ := strconv.ParseFloat(string(m[1]), 64)
		ys = append(ys, pageH-y)
	}
	return ys
}

// TestFooterUnderTable: the footer layout writes a page footer (its
// parts in Doc.Furniture, shown on the page) a line or two under the
// table's last row, never inside its box.
func TestFooterUnderTable(t *testing.T) {
	close := 0
	for seed := uint64(1); seed <= 20; seed++ {
		d, err := GenerateLayout(seed, "footer")
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Tables) != 1 {
			t.Fatalf("seed %d: %d tables, want 1", seed, len(d.Tables))
		}
		if len(d.Furniture) < 2 {
			t.Fatalf("seed %d: footer parts %v, want 2 or more", seed, d.Furniture)
		}
		b := d.Tables[0].BBox
		top := d.Furniture[0].Base
		for _, m := range d.Furniture {
			if len(xs(d.PDF, pdfText(m.Text))) == 0 {
				t.Errorf("seed %d: footer part %q not shown", seed, m.Text)
			}
			if m.Base <= b.Y1 {
				t.Errorf("seed %d: footer part %q at %.1f inside the table (bottom %.1f)", seed, m.Text, m.Base, b.Y1)
			}
			top = min(top, m.Base)
		}
		if top-b.Y1 < 30 {
			close++
		}
	}
	if close < 20 {
		t.Errorf("%d of 20 footers within 30 pt of the table", close)
	}
}

// pdfText is s as the page's content stream writes it in a string: its
// parentheses and backslashes escaped.
func pdfText(s string) string {
	return strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(s)
}

// TestGroupsBetweenRules: the groups layout's body rows come in groups of
// two or three under a label spanning them (the first group may be one
// row), and some group has three rows.
func TestGroupsBetweenRules(t *testing.T) {
	three := 0
	for seed := uint64(1); seed <= 20; seed++ {
		d, err := GenerateLayout(seed, "groups")
		if err != nil {
			t.Fatal(err)
		}
		tb := d.Tables[0]
		if tb.Style != Booktabs {
			t.Errorf("seed %d: style %v, want booktabs", seed, tb.Style)
		}
		var spans []int
		for _, c := range tb.Cells {
			if c.C0 == 0 && c.R0 > 0 {
				if c.Text == "" {
					t.Errorf("seed %d: an empty group label at row %d", seed, c.R0)
				}
				spans = append(spans, c.R1-c.R0+1)
			}
		}
		if len(spans) < 2 {
			t.Fatalf("seed %d: %d groups, want 2 or more", seed, len(spans))
		}
		for i, n := range spans {
			if n > 3 || n < 2 && i > 0 {
				t.Errorf("seed %d: group %d of %d rows", seed, i, n)
			}
			if n == 3 {
				three++
			}
		}
	}
	if three < 10 {
		t.Errorf("%d groups of three rows in 20 pages", three)
	}
}
