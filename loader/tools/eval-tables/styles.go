package main

// The styles set (session 39, tablegen42): a TUNE set of Chromium-printed
// pages drawing what the other visible generators (tablegen, kinds,
// hard, surround) do not: tables in Chromium's default table CSS (no
// border-collapse, 2px border spacing, 1px padding, bold centred heads)
// and in common site styles (a framework's row rules, a wiki's grid, a
// code host's striped grid, the legacy border=1 look); partial rules
// (only a head underline, only horizontal rules, only an outer box, only
// vertical rules); colspan and rowspan in heads and bodies, in any
// column; captions above or below, centred or not; long text in narrow
// columns and long heads over narrow number columns (multi-line cells and
// heads); a table broken over two pages with its head repeated and
// nothing else said; two or three tables stacked a short gap apart or
// side by side; tables in two- or three-column text; Liberation and
// DejaVu fonts at 8-12pt; amounts right-aligned with currencies,
// negatives in parentheses or with a minus, empty cells. Written without
// reading the held-out browser set's drawing code (only the kinds set's
// use of its printer and truth).
//
// Seeds 7001..7000+n (its own range) from its own RNG stream; even seeds
// are the tune split (-v and -show print their documents), odd seeds the
// report split (figures only), as for the kinds set.

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// stylesVersion names the generator: figures of other versions are not
// comparable.
const stylesVersion = 1

// stylesFirst is the seed before the set's first.
const stylesFirst = 7000

// stylesStream is the RNG's second word (its own stream).
const stylesStream = 0x7374796c6573 // "styles"

var stylesSet = kindsSet{
	name: "styles", first: stylesFirst, version: stylesVersion, page: stylesPage,
	about: "Chromium-printed tables in default and site CSS, partial rules, spans, wrapped cells, stacked, side by side, in columns, over two pages",
	tuned: "TUNED ON since session 39",
}

// stylesLayouts are a page's arrangements of its tables.
var stylesLayouts = []string{"flow", "flow", "gap", "side", "columns", "continued"}

// stylesStyles are a table's CSS: Chromium's defaults, site styles and
// partial rules.
var stylesStyles = []string{"default", "default", "framework", "framework-striped", "wiki", "codehost", "border1",
	"headline", "hrules", "box", "vrules"}

// stylesKinds are a table's contents.
var stylesKinds = []string{"money", "spans", "text", "stats"}

// stylesPage draws seed's page (two pages for a continued table).
func stylesPage(seed uint64) kdPage {
	g := kdGen{rand.New(rand.NewPCG(seed, stylesStream))}
	font := g.pick(kdFamilies)
	pt := g.n(8, 12)
	lead := g.pick([]string{"normal", "1.15", "1.25", "1.4"})
	style := fmt.Sprintf(`<div style="font-family:%s;font-size:%dpt;line-height:%s">`, font, pt, lead)
	// a line's height in CSS pixels ("normal" is about 1.17 in these fonts)
	line := float64(pt) * 4 / 3 * map[string]float64{"normal": 1.17, "1.15": 1.15, "1.25": 1.25, "1.4": 1.4}[lead]
	page := 0
	// fill writes body's {Ti} as ts[i] and wraps it in the page's font
	fill := func(body string, ts []kdTable) brPage {
		p := brPage{}
		for i, t := range ts {
			body = strings.Replace(body, fmt.Sprintf("{T%d}", i), t.html(fmt.Sprintf("st%d_%d_%d", seed, page, i)), 1)
			p.tables = append(p.tables, t.brTable())
		}
		page++
		p.body = style + body + "</div>"
		return p
	}
	kind := g.pick(stylesLayouts)
	if kind == "continued" {
		a, b, c := g.stContinued(line)
		body2 := "{T0}"
		ts2 := []kdTable{b}
		if c.rows != nil {
			body2 += g.tight(1, 1) + g.stCaption(1, true) + "{T1}"
			ts2 = append(ts2, c)
		}
		p1 := fill(g.para(1, 1)+g.stCaption(0, true)+"{T0}", []kdTable{a})
		return kdPage{kind: kind, pages: []brPage{p1, fill(body2+g.para(0, 1), ts2)}}
	}
	// the rows a page holds at its line height; a table of k on a page
	// gets about its share
	fit := int((928 - 6*line) / (line + 9))
	share := func(k int) int { return max(3, fit/k-4) }
	var ts []kdTable
	put := func(t kdTable) string {
		ts = append(ts, t)
		return fmt.Sprintf("{T%d}", len(ts)-1)
	}
	body := g.para(0, 1)
	switch kind {
	case "flow": // two or three tables with text and captions between
		k := g.n(2, 3)
		for i := k; i > 0; i-- {
			body += g.stCaption(len(ts), true) + put(g.stTable(6, share(k))) + g.stCaption(len(ts)-1, false) + g.tight(1, 2)
		}
	case "gap": // two or three tables a short gap apart, nothing between
		k := g.n(2, 3)
		for i := k; i > 0; i-- {
			t := g.stTable(5, share(k))
			t.css += fmt.Sprintf(`#T{margin:0 0 %dpx 0}`, g.n(0, 12))
			body += put(t)
		}
		body += g.tight(1, 2)
	case "side": // two or three tables side by side
		body += g.stSide(put, share(2)) + g.tight(1, 2)
	case "columns": // tables in two- or three-column text
		cols := g.n(2, 3)
		body += fmt.Sprintf(`<div style="column-count:%d;column-gap:%dpx;text-align:%s">`, cols, g.n(12, 30), g.pick([]string{"left", "justify"})) + g.tight(1, 2)
		for i := g.n(1, 2); i > 0; i-- {
			t := g.stTable(6-cols, share(2))
			t.css += `#T{break-inside:avoid;width:100%}`
			body += g.stCaption(len(ts), true) + put(t) + g.tight(1, 3)
		}
		body += g.para(1, 2) + "</div>"
	}
	return kdPage{pages: []brPage{fill(body+g.para(0, 1), ts)}, kind: kind}
}

// stSide writes two or three tables side by side in a flex row, as
// inline tables or as floats.
func (g kdGen) stSide(put func(kdTable) string, rows int) string {
	k := g.n(2, 3)
	how := g.pick([]string{"flex", "inline", "float"})
	gap := g.n(8, 40)
	var cells []string
	for i := 0; i < k; i++ {
		t := g.stTable(7-2*k+1, rows)
		t.css += `#T{width:auto}` // a site style's full width would stack them
		switch how {
		case "inline":
			t.css += fmt.Sprintf(`#T{display:inline-table;vertical-align:top;margin-right:%dpx}`, gap)
		case "float":
			t.css += fmt.Sprintf(`#T{float:left;margin-right:%dpx}`, gap)
		}
		cells = append(cells, put(t))
	}
	switch how {
	case "flex":
		return fmt.Sprintf(`<div style="display:flex;gap:%dpx;align-items:flex-start">`, gap) + "<div>" + strings.Join(cells, "</div><div>") + "</div></div>"
	case "inline":
		return "<div>" + strings.Join(cells, "") + "</div>"
	}
	return "<div>" + strings.Join(cells, "") + `<div style="clear:both"></div></div>`
}

// stContinued is one long table broken over two pages: the first part
// (a) under a paragraph down to the page's foot, the second (b) at the
// top of the next page with its head rows repeated (as Chromium repeats a
// thead) and no caption; now and then another table (c) after it.
//
// The first part's rows are as many as about fill the page at line's
// height (CSS pixels) a line: the page's 928px of content less a
// paragraph and a caption, a row a line and 9px of padding and rule (the
// site style of .75rem padding is made .3rem here).
func (g kdGen) stContinued(line float64) (a, b, c kdTable) {
	first := int((928-5*line)/(line+9)*float64(g.n(65, 80))/100) - 2
	t := g.stBody(g.pick([]string{"money", "stats"}), g.n(3, 5), first+g.n(6, 14))
	g.stStyle(&t)
	t.css = strings.ReplaceAll(t.css, ".75rem", ".3rem")
	h := 0
	for h < len(t.rows) && t.rows[h][0].head {
		h++
	}
	cut := h + first
	a = kdTable{css: t.css, rows: t.rows[:cut]}
	b = kdTable{css: t.css, rows: append(append([][]kdCell{}, t.rows[:h]...), t.rows[cut:]...)}
	if g.p(0.4) {
		c = g.stTable(5, 4)
	}
	return a, b, c
}

// stCaption is table i's caption above (or below) it, or nothing.
func (g kdGen) stCaption(i int, above bool) string {
	if !g.p(map[bool]float64{true: 0.4, false: 0.2}[above]) {
		return ""
	}
	w := strings.Fields(g.sentence())
	w = w[:min(len(w), g.n(3, 10))]
	lab := fmt.Sprintf("%s %d%s", g.pick([]string{"Table", "Table", "Exhibit", "Tab."}), i+g.n(1, 9), g.pick([]string{".", ":", " –", ""}))
	if g.p(0.5) {
		lab = "<b>" + lab + "</b>"
	}
	return fmt.Sprintf(`<p style="margin:%dpx 0;text-align:%s;font-size:%s%%">%s %s</p>`, g.n(0, 6), g.pick([]string{"left", "left", "center"}),
		g.pick([]string{"100", "90", "85"}), lab, strings.TrimSuffix(strings.Join(w, " "), "."))
}

// stTable is one table of at most maxCols columns (3 at least) and
// maxRows body rows (3 at least; a third of that for long text): a kind
// of content in one of the set's styles.
func (g kdGen) stTable(maxCols, maxRows int) kdTable {
	maxCols, maxRows = max(maxCols, 3), max(maxRows, 3)
	kind := g.pick(stylesKinds)
	if kind == "text" {
		maxRows = max(2, maxRows/3)
	}
	t := g.stBody(kind, g.n(3, maxCols), g.n(min(3, maxRows), min(10, maxRows)))
	g.stStyle(&t)
	return t
}
