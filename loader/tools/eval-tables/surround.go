package main

// The surround set (session 26, tables29): a TUNE set of Chromium-printed
// pages that vary what is around a table rather than the table itself,
// to produce the box errors (a table merged with text above, below or
// beside it, or with another table; split; missed) that the kinds and
// hard sets seldom produce and that cost the held-out figure most. Each
// page draws, from its seed, the hard set's font, size and leading and a
// table of the hard set's shapes and styles (hardTable), or a one-row
// table, a two-column one, or one whose last column is mostly empty; then
// what surrounds it: a bulleted or numbered list right above or below
// (items short, some in two parts like "Phase 1 – 12 weeks"), a caption
// above or below, notes or footnotes under it at a smaller size, a
// heading directly above, a page-wide rule or figure (an SVG chart with
// its labels as text) above it, a tight paragraph; and a layout: the
// table alone, in one column of two-column body text or page-wide between
// two-column text, floated beside a paragraph, two tables side by side,
// one right under another of other columns, or a table going on after a
// page-wide figure or rule (two truth tables of the same columns).
// Written without reading the held-out browser set's drawing code.
//
// Seeds 5001..5000+n (its own range) from its own RNG stream; even seeds
// are the tune split (-v and -show print their documents), odd seeds the
// report split (figures only).

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// surroundVersion names the generator: figures of other versions are not
// comparable.
const surroundVersion = 2 // 2: session 39: the font, size and leading reach Chromium (kdFamilies' quotes)

// surroundFirst is the seed before the set's first.
const surroundFirst = 5000

// surroundStream is the RNG's second word (its own stream).
const surroundStream = 0x73726e64 // "srnd"

var surroundSet = kindsSet{
	name: "surround", first: surroundFirst, version: surroundVersion, page: surroundPage,
	about: "Chromium-printed tables amid lists, captions, notes, headings, figures, columns and other tables",
	tuned: "TUNED ON since session 26",
}

var surroundLayouts = []string{"alone", "alone", "columns", "widecols", "float", "sidebyside", "stackdiff", "continues"}

// surroundPage draws seed's page.
func surroundPage(seed uint64) kdPage {
	g := kdGen{rand.New(rand.NewPCG(seed, surroundStream))}
	font := g.pick(kdFamilies)
	size := float64(g.n(22, 30)) / 2
	lead := float64(g.n(11, 15)) / 10
	kind := g.pick(surroundLayouts)
	var ts []kdTable
	put := func(t kdTable) string {
		ts = append(ts, t)
		return fmt.Sprintf("{T%d}", len(ts)-1)
	}
	body := g.para(0, 1)
	switch kind {
	case "alone":
		body += g.above(len(ts)) + put(g.anyShape()) + g.below(len(ts)) + g.tight(0, 2)
	case "columns": // in one column of two-column body text
		t := g.anyShape()
		t.css += `#T{break-inside:avoid}`
		body += fmt.Sprintf(`<div style="column-count:2;column-gap:%dpx">`, g.n(16, 40)) + g.tight(1, 3) + g.para(0, 1) +
			g.above(0) + put(t) + g.below(1) + g.tight(1, 3) + g.para(1, 2) + "</div>"
	case "widecols": // page-wide between two-column text
		cols := fmt.Sprintf(`<div style="column-count:2;column-gap:%dpx;margin:0">`, g.n(16, 40))
		body += cols + g.tight(2, 3) + g.tight(1, 3) + "</div>" + g.above(0) + put(g.anyShape()) + g.below(1) + cols + g.tight(2, 3) + g.tight(1, 2) + "</div>"
	case "float": // floated beside a paragraph
		t := g.anyShape()
		side := g.pick([]string{"left", "right"})
		m := g.n(8, 24)
		if side == "left" {
			t.css += fmt.Sprintf(`#T{float:left;margin:2px %dpx 2px 0}`, m)
		} else {
			t.css += fmt.Sprintf(`#T{float:right;margin:2px 0 2px %dpx}`, m)
		}
		body += g.above(0) + put(t) + g.tight(2, 4) + g.tight(1, 3) + `<div style="clear:both"></div>` + g.tight(0, 2)
	case "sidebyside":
		a, b := g.anyShape(), g.anyShape()
		body += g.above(0) + fmt.Sprintf(`<div style="display:flex;gap:%dpx;align-items:%s">`, g.n(14, 48), g.pick([]string{"flex-start", "flex-start", "flex-end"})) +
			"<div>" + put(a) + g.below(1) + "</div><div>" + put(b) + g.below(1) + "</div></div>" + g.tight(1, 2)
	case "stackdiff": // one right under another of other columns
		a, b := g.anyShape(), g.anyShape()
		for i := 0; i < 20 && len(b.rows[len(b.rows)-1]) == len(a.rows[len(a.rows)-1]); i++ {
			b = g.anyShape()
		}
		a.css += fmt.Sprintf(`#T{margin-bottom:%dpx}`, g.n(0, 12))
		mid := ""
		if g.p(0.4) {
			mid = g.above(1)
		}
		body += g.above(0) + put(a) + mid + put(b) + g.below(2) + g.tight(0, 2)
	case "continues": // a table going on after a page-wide figure or rule
		a := g.hardTable(true)
		b := kdTable{css: a.css, rows: g.hardTable(false).rows}
		b.rows = sameWidth(b.rows, len(a.rows[len(a.rows)-1]))
		body += g.above(0) + put(a) + g.breaker() + put(b) + g.below(2) + g.tight(0, 2)
	}
	body += g.para(0, 1)
	p := brPage{}
	for i, t := range ts {
		body = strings.Replace(body, fmt.Sprintf("{T%d}", i), t.html(fmt.Sprintf("s%d_%d", seed, i)), 1)
		p.tables = append(p.tables, t.brTable())
	}
	p.body = fmt.Sprintf(`<div style="font-family:%s;font-size:%.1fpx;line-height:%.1f">`, font, size, lead) + body + "</div>"
	return kdPage{pages: []brPage{p}, kind: kind}
}

// sameWidth cuts or pads rows to n cells (unspanned first).
func sameWidth(rows [][]kdCell, n int) [][]kdCell {
	var out [][]kdCell
	for _, r := range unspan(rows) {
		var o []kdCell
		for _, c := range r {
			if len(o) < n {
				o = append(o, c.span(1, 1))
			}
		}
		for len(o) < n {
			o = append(o, kc("").with("n"))
		}
		out = append(out, o)
	}
	return out
}

// unspan gives a stub cell spanning rows (hardStyle's, the first of its
// row) one row, and the rows under it a blank first cell.
func unspan(rows [][]kdCell) [][]kdCell {
	out := make([][]kdCell, len(rows))
	copy(out, rows)
	for r := range out {
		if len(out[r]) == 0 || out[r][0].rs <= 1 {
			continue
		}
		k := out[r][0].rs
		out[r] = append([]kdCell{out[r][0].span(1, out[r][0].cs)}, out[r][1:]...)
		for d := 1; d < k && r+d < len(out); d++ {
			out[r+d] = append([]kdCell{kc("")}, out[r+d]...)
		}
	}
	return out
}

// anyShape is the hard set's table, or a one-row table, a two-column
// one, or one whose last column is mostly empty.
func (g kdGen) anyShape() kdTable {
	switch g.n(0, 5) {
	case 0: // one body row under a head
		t := g.hardTable(true)
		t.rows = t.rows[:2]
		for i := range t.rows[1] {
			t.rows[1][i].rs = 1
		}
		return t
	case 1: // two columns
		t := g.hardTable(g.p(0.5))
		return kdTable{css: t.css, rows: sameWidth(t.rows, 2)}
	case 2: // the last column mostly empty (remarks)
		t := g.hardTable(true)
		head := t.rows[0][0].head
		for i, r := range t.rows {
			var c kdCell
			switch {
			case i == 0 && head:
				c = kh(g.pick([]string{"Remarks", "Notes", "Comment", "See"}))
			case g.p(0.25):
				c = kc(g.pick([]string{"see note 3", "provisional", "revised", "*", "incl. VAT", "est."}))
			default:
				c = kc("")
			}
			t.rows[i] = append(r, c)
		}
		return t
	}
	return g.hardTable(g.p(0.6))
}

// surroundItems are short list items; some in two parts, like a column.
var surroundItems = []string{"Inspection of all sites", "Budget review", "Phase 1 – 12 weeks", "Phase 2 – 8 weeks", "Approval by the board",
	"Supply voltage checked", "Annex B updated", "Costs: 4,200", "Staff: 14", "Deadline 30 June", "Report to the committee",
	"Site visit, 3 days", "Final audit", "Training for new staff", "Tender documents", "Risk register", "Step 2: confirm the order",
	"Spare parts in stock", "Option A (preferred)", "Option B", "Contact: J. Meyer", "Room B-204"}

// list is a bulleted or numbered list of short items, no margin.
func (g kdGen) list() string {
	tag := g.pick([]string{"ul", "ol"})
	s := fmt.Sprintf(`<%s style="margin:%dpx 0;padding-left:%dpx">`, tag, g.n(0, 4), g.n(16, 30))
	for i := g.n(2, 5); i > 0; i-- {
		s += "<li>" + g.pick(surroundItems) + "</li>"
	}
	return s + "</" + tag + ">"
}

// caption is a caption line numbered i+1.
func (g kdGen) caption(i int) string {
	w := strings.Fields(g.sentence())
	w = w[:min(len(w), g.n(3, 9))]
	lab := fmt.Sprintf("Table %d%s", i+g.n(1, 4), g.pick([]string{".", ":", " –"}))
	if g.p(0.5) {
		lab = "<b>" + lab + "</b>"
	}
	return fmt.Sprintf(`<p style="margin:%dpx 0">%s %s</p>`, g.n(0, 4), lab, strings.TrimSuffix(strings.Join(w, " "), "."))
}

// footnotes are notes under a table at a smaller size.
func (g kdGen) footnotes() string {
	s := fmt.Sprintf(`<div style="font-size:%d%%;margin-top:%dpx">`, g.n(75, 90), g.n(0, 4))
	for i := g.n(1, 3); i > 0; i-- {
		w := strings.Fields(g.sentence())
		w = w[:min(len(w), g.n(3, 14))]
		mark := g.pick([]string{"Source:", "Note:", "a", "b", "*", "1)", "Notes:", "†"})
		s += `<p style="margin:0">` + mark + " " + strings.Join(w, " ") + "</p>"
	}
	return s + "</div>"
}

// heading is a heading right above what follows.
func (g kdGen) heading() string {
	w := strings.Fields(g.sentence())
	w = w[:min(len(w), g.n(2, 6))]
	lv := g.n(2, 4)
	return fmt.Sprintf(`<h%d style="margin:%dpx 0 %dpx 0">%s%s</h%d>`, lv, g.n(4, 12), g.n(0, 6),
		g.pick([]string{"", "", fmt.Sprintf("%d.%d ", g.n(1, 9), g.n(1, 9))}), strings.TrimSuffix(strings.Join(w, " "), "."), lv)
}

// breaker is a page-wide rule or figure.
func (g kdGen) breaker() string {
	if g.p(0.4) {
		return fmt.Sprintf(`<hr style="margin:%dpx 0;border:0;border-top:%s">`, g.n(2, 10), g.pick([]string{"1px solid #000", "0.75px solid #888", "2px solid #333"}))
	}
	return g.figure()
}

// figure is a page-wide bar chart in SVG with its axis labels as text,
// a caption under it now and then.
func (g kdGen) figure() string {
	w, h := g.n(420, 700), g.n(110, 200)
	n := g.n(3, 7)
	s := fmt.Sprintf(`<svg width="%d" height="%d" viewBox="0 0 %d %d" style="display:block;max-width:100%%;height:auto;margin:%dpx 0" font-size="11" font-family="sans-serif">`, w, h, w, h, g.n(2, 8))
	s += fmt.Sprintf(`<line x1="40" y1="%d" x2="%d" y2="%d" stroke="#000"/><line x1="40" y1="6" x2="40" y2="%d" stroke="#000"/>`, h-20, w-6, h-20, h-20)
	for k := 0; k < 3; k++ {
		y := h - 20 - k*(h-30)/2
		s += fmt.Sprintf(`<text x="4" y="%d">%d</text>`, y+4, k*g.n(10, 50))
	}
	bw := (w - 60) / n
	labels := []string{"2021", "2022", "2023", "2024", "2025", "North", "South", "East", "West", "Q1", "Q2", "Q3", "Q4"}
	o := g.n(0, len(labels)-1)
	for i := 0; i < n; i++ {
		bh := g.n(10, h-40)
		x := 50 + i*bw
		s += fmt.Sprintf(`<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`, x, h-20-bh, bw*2/3, bh, g.pick([]string{"#6a8caf", "#999", "#c0504d"}))
		s += fmt.Sprintf(`<text x="%d" y="%d">%s</text>`, x, h-6, labels[(o+i)%len(labels)])
	}
	s += "</svg>"
	if g.p(0.6) {
		w := strings.Fields(g.sentence())
		s += fmt.Sprintf(`<p style="margin:0 0 %dpx 0;font-size:90%%">Figure %d. %s</p>`, g.n(0, 6), g.n(1, 5), strings.TrimSuffix(strings.Join(w[:min(len(w), 8)], " "), "."))
	}
	return s
}

// above is what comes right above table i: a tight paragraph, a heading,
// a list, a caption, a rule or figure, or nothing more.
func (g kdGen) above(i int) string {
	switch g.n(0, 6) {
	case 0:
		return g.tight(1, 2)
	case 1:
		return g.heading()
	case 2:
		return g.list()
	case 3:
		return g.caption(i)
	case 4:
		return g.breaker()
	case 5:
		return g.heading() + g.caption(i)
	}
	return ""
}

// below is what comes right under table i: notes, a list, a caption, a
// tight paragraph, or nothing more.
func (g kdGen) below(i int) string {
	switch g.n(0, 5) {
	case 0:
		return g.footnotes()
	case 1:
		return g.list()
	case 2:
		return g.caption(i)
	case 3:
		return g.tight(1, 2)
	case 4:
		return g.footnotes() + g.tight(0, 1)
	}
	return ""
}
