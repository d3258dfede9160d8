package main

import (
	"strings"
	"testing"
)

// Every kinds table's rows cover the same number of grid columns (a
// ragged row would be a wrong truth), every kind is drawn, and a
// continued table's two parts are on two pages with the head repeated.
func TestKindsTablesRectangular(t *testing.T) {
	seen := map[string]int{}
	for seed := uint64(kindsFirst + 1); seed <= kindsFirst+640; seed++ {
		kp := kindsPage(seed)
		seen[kp.kind]++
		for pi, p := range kp.pages {
			if strings.Count(p.body, "<table") != len(p.tables) {
				t.Fatalf("seed %d page %d: %d tables written, %d in the truth", seed, pi, strings.Count(p.body, "<table"), len(p.tables))
			}
			for ti, tb := range p.tables {
				if r, w, w0 := ragged(tb); r >= 0 {
					t.Fatalf("seed %d page %d table %d: row %d covers %d columns, row 0 %d", seed, pi, ti, r, w, w0)
				}
			}
		}
		if kp.kind == "continued" {
			if len(kp.pages) != 2 {
				t.Fatalf("seed %d: continued on %d pages", seed, len(kp.pages))
			}
			a, b := kp.pages[0].tables[0].truth(), kp.pages[1].tables[0].truth()
			if a[0] != b[0] {
				t.Errorf("seed %d: the second part's head %v is not the first's %v", seed, b[0], a[0])
			}
		}
	}
	for _, k := range kdKinds {
		if seen[k] < 20 {
			t.Errorf("kind %s drawn %d times in 640 seeds", k, seen[k])
		}
	}
}

// Every hard-set table is rectangular and has 2-4 columns and 3-6 rows,
// both layouts are drawn, and a stacked page's second table has a head
// row (what tells it from the first).
func TestHardTablesRectangular(t *testing.T) {
	seen := map[string]int{}
	wrapped := 0
	for seed := uint64(hardFirst + 1); seed <= hardFirst+400; seed++ {
		kp := hardPage(seed)
		seen[kp.kind]++
		p := kp.pages[0]
		if strings.Count(p.body, "<table") != len(p.tables) {
			t.Fatalf("seed %d: %d tables written, %d in the truth", seed, strings.Count(p.body, "<table"), len(p.tables))
		}
		for ti, tb := range p.tables {
			g := cellGrid(tb.truth())
			if len(g) < 3 || len(g) > 6 || ncols(g) < 2 || ncols(g) > 4 {
				t.Errorf("seed %d table %d: %dx%d", seed, ti, len(g), ncols(g))
			}
			if r, w, w0 := ragged(tb); r >= 0 {
				t.Fatalf("seed %d table %d: row %d covers %d columns, row 0 %d", seed, ti, r, w, w0)
			}
			for _, row := range tb.rows {
				for _, c := range row {
					if len(c.lines) > 1 {
						wrapped++
					}
				}
			}
			if ti == 1 && !tb.rows[0][0].head {
				t.Errorf("seed %d: the second stacked table has no head row", seed)
			}
		}
	}
	if seen["one"] < 200 || seen["stacked"] < 80 || wrapped < 100 {
		t.Errorf("drawn: %v, %d wrapped cells in 400 seeds", seen, wrapped)
	}
}

// Every surround-set table is rectangular, every layout is drawn, and
// each page writes as many tables as its truth holds.
func TestSurroundTablesRectangular(t *testing.T) {
	seen := map[string]int{}
	for seed := uint64(surroundFirst + 1); seed <= surroundFirst+400; seed++ {
		kp := surroundPage(seed)
		seen[kp.kind]++
		p := kp.pages[0]
		if strings.Count(p.body, "<table") != len(p.tables) {
			t.Fatalf("seed %d: %d tables written, %d in the truth", seed, strings.Count(p.body, "<table"), len(p.tables))
		}
		for ti, tb := range p.tables {
			g := cellGrid(tb.truth())
			if len(g) < 2 || ncols(g) < 2 {
				t.Errorf("seed %d table %d: %dx%d", seed, ti, len(g), ncols(g))
			}
			if r, w, w0 := ragged(tb); r >= 0 {
				t.Fatalf("seed %d table %d: row %d covers %d columns, row 0 %d", seed, ti, r, w, w0)
			}
		}
	}
	for _, k := range surroundLayouts {
		if seen[k] < 25 {
			t.Errorf("layout %s drawn %d times in 400 seeds", k, seen[k])
		}
	}
}

// ragged is the first row of tb covering another number of grid columns
// than row 0 (spans counted), its width and row 0's; -1 when none.
func ragged(tb brTable) (int, int, int) {
	width := map[int]int{}
	for r, row := range tb.rows {
		for _, c := range row {
			for dr := 0; dr < c.rs; dr++ {
				width[r+dr] += c.cs
			}
		}
	}
	for r := range tb.rows {
		if width[r] != width[0] {
			return r, width[r], width[0]
		}
	}
	return -1, 0, 0
}

// Every styles-set table is rectangular, every layout, style and kind is
// drawn, each page writes as many tables as its truth holds, and a
// continued table's second part repeats the first's head rows.
func TestStylesTablesRectangular(t *testing.T) {
	seen := map[string]int{}
	tables := 0
	for seed := uint64(stylesFirst + 1); seed <= stylesFirst+400; seed++ {
		kp := stylesPage(seed)
		seen[kp.kind]++
		for pi, p := range kp.pages {
			if strings.Count(p.body, "<table") != len(p.tables) {
				t.Fatalf("seed %d page %d: %d tables written, %d in the truth", seed, pi, strings.Count(p.body, "<table"), len(p.tables))
			}
			for ti, tb := range p.tables {
				tables++
				if r, w, w0 := ragged(tb); r >= 0 {
					t.Fatalf("seed %d page %d table %d: row %d covers %d columns, row 0 %d", seed, pi, ti, r, w, w0)
				}
				g := cellGrid(tb.truth())
				if len(g) < 2 || ncols(g) < 2 {
					t.Errorf("seed %d page %d table %d: %dx%d", seed, pi, ti, len(g), ncols(g))
				}
			}
		}
		if kp.kind == "continued" {
			if len(kp.pages) != 2 {
				t.Fatalf("seed %d: continued on %d pages", seed, len(kp.pages))
			}
			a, b := kp.pages[0].tables[0], kp.pages[1].tables[0]
			if a.truth()[0] != b.truth()[0] || !b.rows[0][0].head || len(b.rows) < 4 {
				t.Errorf("seed %d: the second part (%d rows) does not repeat the head", seed, len(b.rows))
			}
		}
	}
	for _, k := range stylesLayouts {
		if seen[k] < 30 {
			t.Errorf("layout %s drawn %d times in 400 seeds", k, seen[k])
		}
	}
	if tables < 400*2 {
		t.Errorf("%d tables in 400 seeds, fewer than 2 a seed", tables)
	}
	// every style and kind is drawn: its CSS or its cells show it
	css := ""
	for seed := uint64(stylesFirst + 1); seed <= stylesFirst+100; seed++ {
		for _, p := range stylesPage(seed).pages {
			css += p.body
		}
	}
	for _, mark := range []string{"border-left:hidden", "outset", "#dee2e6", "#a2a9b1", "#d0d7de", "rgba(0,0,0,.05)", "column-count", "inline-table", "float:left", "display:flex", "rowspan", "colspan", "(", "€"} {
		if !strings.Contains(css, mark) {
			t.Errorf("no page of seeds 7001..7100 has %q", mark)
		}
	}
}

// Every kinds, hard, surround and styles page's font reaches Chromium:
// the page's opening div's style attribute is whole (a family name in
// double quotes ended it, and the page printed in the default font) and
// names the family, size and leading drawn.
func TestPageFontWhole(t *testing.T) {
	for _, set := range []kindsSet{kindsV, hardSet, surroundSet, stylesSet} {
		fonts := map[string]bool{}
		for seed := uint64(set.first + 1); seed <= uint64(set.first+60); seed++ {
			for pi, p := range set.page(seed).pages {
				open := p.body[:strings.Index(p.body, ">")]
				if !strings.HasPrefix(open, `<div style="font-family:`) || strings.Count(open, `"`) != 2 || !strings.Contains(open, "font-size:") || !strings.Contains(open, "line-height:") {
					t.Fatalf("%s seed %d page %d: the page's style attribute is cut short: %s", set.name, seed, pi, open)
				}
				fonts[open[len(`<div style="font-family:`):strings.Index(open, ";")]] = true
			}
		}
		if len(fonts) < 4 {
			t.Errorf("%s: %d font families in 60 seeds: %v", set.name, len(fonts), fonts)
		}
	}
}
