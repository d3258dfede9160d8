package tablegen

import (
	"bytes"
	"strings"
	"testing"
)

func TestGenerateIsDeterministic(t *testing.T) {
	a, err := Generate(42)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(42)
	c, _ := Generate(43)
	if !bytes.Equal(a.PDF, b.PDF) {
		t.Error("seed 42 gave two different PDFs")
	}
	if bytes.Equal(a.PDF, c.PDF) {
		t.Error("seeds 42 and 43 gave the same PDF")
	}
}

func TestLayouts(t *testing.T) {
	want := map[string]int{"single": 1, "stacked": 2, "side": 2, "beside": 1, "small": 1}
	for seed := uint64(1); seed <= 20; seed++ {
		for _, l := range Layouts {
			d, err := GenerateLayout(seed, l)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Tables) != want[l] {
				t.Fatalf("seed %d %s: %d tables, want %d", seed, l, len(d.Tables), want[l])
			}
			for i, tb := range d.Tables {
				b := tb.BBox
				if b.X0 < 0 || b.Y0 < 0 || b.X1 > pageW || b.Y1 > pageH || b.X1-b.X0 < 30 || b.Y1-b.Y0 < 20 {
					t.Errorf("seed %d %s table %d: box %v off the page or tiny", seed, l, i, b)
				}
				if i == 1 && l == "side" && b.X0 <= d.Tables[0].BBox.X1 {
					t.Errorf("seed %d: side-by-side tables overlap: %v %v", seed, d.Tables[0].BBox, b)
				}
				if i == 1 && l == "stacked" && b.Y0 <= d.Tables[0].BBox.Y1 {
					t.Errorf("seed %d: stacked tables overlap: %v %v", seed, d.Tables[0].BBox, b)
				}
				empty := 0
				for _, c := range tb.Cells {
					if c.Text == "" {
						empty++
					}
				}
				if empty*2 > len(tb.Cells) {
					t.Errorf("seed %d %s table %d: %d of %d cells empty", seed, l, i, empty, len(tb.Cells))
				}
			}
		}
	}
}

// TestMarks: some tables carry footnote marks, accounts-style negatives
// and a currency sign set apart, in the truth as on the page.
func TestMarks(t *testing.T) {
	found := map[string]bool{}
	for seed := uint64(1); seed <= 60; seed++ {
		d, err := Generate(seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range d.Tables {
			for _, c := range tb.Cells {
				switch {
				case strings.HasSuffix(c.Text, "(p)") || strings.HasSuffix(c.Text, "(e)") || strings.HasSuffix(c.Text, "(1)"):
					found["mark"] = true
				case strings.HasPrefix(c.Text, "$ "):
					found["apart"] = true
				case strings.HasPrefix(c.Text, "(") && strings.HasSuffix(c.Text, ")") && strings.ContainsAny(c.Text, "0123456789"):
					found["negative"] = true
				}
			}
		}
	}
	for _, k := range []string{"mark", "apart", "negative"} {
		if !found[k] {
			t.Errorf("no %s in seeds 1..60", k)
		}
	}
}
