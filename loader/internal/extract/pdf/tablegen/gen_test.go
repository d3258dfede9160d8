package tablegen

import (
	"bytes"
	"math"
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
	want := map[string]int{"single": 1, "stacked": 2, "side": 2, "beside": 1, "small": 1,
		"continued": 2, "textpair": 2, "wrapheads": 1, "leading": 1,
		"closepara": 1, "stackedtight": 2, "sidetight": 2, "smalltext": 1, "bodywrap": 1,
		"footer": 1, "groups": 1, "sublines": 1, "runhead": 1}
	for seed := uint64(1); seed <= 20; seed++ {
		for _, l := range Layouts {
			d, err := GenerateLayout(seed, l)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(d.Tables); n != want[l] && (l != "smalltext" || n != 2) {
				t.Fatalf("seed %d %s: %d tables, want %d", seed, l, len(d.Tables), want[l])
			}
			for i, tb := range d.Tables {
				b := tb.BBox
				if b.X0 < 0 || b.Y0 < 0 || b.X1 > pageW || b.Y1 > pageH || b.X1-b.X0 < 30 || b.Y1-b.Y0 < 20 {
					t.Errorf("seed %d %s table %d: box %v off the page or tiny", seed, l, i, b)
				}
				if i == 1 && (l == "side" || l == "textpair" || l == "sidetight") && b.X0 <= d.Tables[0].BBox.X1 {
					t.Errorf("seed %d: side-by-side tables overlap: %v %v", seed, d.Tables[0].BBox, b)
				}
				if i == 1 && (l == "stacked" || l == "stackedtight") && b.Y0 <= d.Tables[0].BBox.Y1 {
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

// TestContinued: a continued table is two truth tables, on pages 1 and 2,
// the second with the first's header cells and its own body rows.
func TestContinued(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		d, err := GenerateLayout(seed, "continued")
		if err != nil {
			t.Fatal(err)
		}
		a, b := d.Tables[0], d.Tables[1]
		if a.Page != 1 || b.Page != 2 {
			t.Fatalf("seed %d: pages %d, %d, want 1, 2", seed, a.Page, b.Page)
		}
		if !bytes.Contains(d.PDF, []byte("/Count 2")) {
			t.Errorf("seed %d: not a two-page PDF", seed)
		}
		head := func(tb Table) (h []string, last int) {
			for _, c := range tb.Cells {
				last = max(last, c.R1)
				if c.R0 == 0 {
					h = append(h, c.Text)
				}
			}
			return h, last
		}
		ha, na := head(a)
		hb, nb := head(b)
		if strings.Join(ha, "|") != strings.Join(hb, "|") {
			t.Errorf("seed %d: header %q on page 2, %q on page 1", seed, hb, ha)
		}
		if na < 3 || nb < 3 {
			t.Errorf("seed %d: %d and %d rows: each part should have a few", seed, na, nb)
		}
	}
}

// TestUnseenKinds: the v3 layouts draw what they are for: text-only
// tables, column heads wrapping beside one-line heads, and a paragraph
// whose lines sit on the rows' baselines.
func TestUnseenKinds(t *testing.T) {
	textOnly, wrapped := 0, 0
	for seed := uint64(1); seed <= 20; seed++ {
		d, _ := GenerateLayout(seed, "textpair")
		for _, tb := range d.Tables {
			num := false
			for _, c := range tb.Cells {
				num = num || c.C0 > 0 && c.R0 > 0 && strings.ContainsAny(c.Text, "0123456789")
			}
			if !num {
				textOnly++
			}
		}
		d, _ = GenerateLayout(seed, "wrapheads")
		for _, c := range d.Tables[0].Cells {
			if c.R0 == 0 && len(strings.Fields(c.Text)) >= 3 {
				wrapped++
				break
			}
		}
	}
	if textOnly < 20 {
		t.Errorf("%d text-only tables in 20 textpair pages, want one or two a page", textOnly)
	}
	if wrapped < 10 {
		t.Errorf("%d of 20 wrapheads pages have a head of three words or more", wrapped)
	}
}

// TestHeldOutKinds: the v4 layouts draw the held-out classes they are
// for: values over their margin of error on a second line, small tables of
// two or three columns with no number column, two tables a line or two
// apart, and two side by side whose tops are level.
func TestHeldOutKinds(t *testing.T) {
	margins, textOnly, tight, level := 0, 0, 0, 0
	for seed := uint64(1); seed <= 20; seed++ {
		d, err := GenerateLayout(seed, "bodywrap")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range d.Tables[0].Cells {
			if c.R0 > 0 && c.C0 > 0 && strings.Contains(c.Text, " (") && strings.HasSuffix(c.Text, ")") {
				margins++
				break
			}
		}
		d, _ = GenerateLayout(seed, "smalltext")
		for _, tb := range d.Tables {
			num, cols := false, 0
			for _, c := range tb.Cells {
				num = num || c.C0 > 0 && c.R0 > 0 && strings.ContainsAny(c.Text, "0123456789")
				cols = max(cols, c.C1+1)
			}
			if !num && cols <= 3 {
				textOnly++
			}
		}
		d, _ = GenerateLayout(seed, "stackedtight")
		if gap := d.Tables[1].BBox.Y0 - d.Tables[0].BBox.Y1; gap < 30 {
			tight++
		}
		d, _ = GenerateLayout(seed, "sidetight")
		if a, b := d.Tables[0], d.Tables[1]; a.Style == b.Style && math.Abs(a.BBox.Y0-b.BBox.Y0) < 0.5 {
			level++
		}
	}
	if margins < 10 || textOnly < 10 || tight < 20 || level < 20 {
		t.Errorf("in 20 pages each: %d with margins, %d small text-only tables, %d tight stacks, %d level pairs", margins, textOnly, tight, level)
	}
}
