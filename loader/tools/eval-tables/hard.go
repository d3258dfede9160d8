package main

// The hard set (session 25, tables28): a TUNE set of Chromium-printed
// pages of small unruled tables drawn to be hard to tell from the text
// around them, randomized where the kinds set draws one fixed style.
// tables27 found (branch tables27-kdhard) that such a variant of the
// kinds' small tables was the only tune material whose misses predicted
// a held-out move: the kinds set's own classes did not. Each page draws,
// from its seed: the font, a font size of 11-15px and a leading of
// 1.1-1.5; one table, or two stacked a small gap apart (0-10px, the second
// with a head row); every
// table without rules, shading or head styling (a plain head row, or
// none), cell padding of 7-16px beside and 0-3px above and below, numbers
// right-aligned or not; now and then a cell of any column wrapped over two
// or three lines; a caption above or below or none; paragraphs with no
// margin at the page's own leading directly above and below (or a
// margin now and then). Written from the kinds set's topics without
// reading the held-out browser set's drawing code. Since v2 half the
// tables have rules or shading (a grid, row rules, booktabs, zebra rows,
// a box), some body cells are blank and a stub cell may span two rows.
//
// Seeds 3001..3000+n (its own range) from its own RNG stream; even seeds
// are the tune split (-v and -show print their documents), odd seeds the
// report split (figures only), as for the kinds set.

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
)

// hardVersion names the generator: figures of other versions are not
// comparable.
const hardVersion = 3 // 3: session 39: the font, size and leading reach Chromium (kdFamilies' quotes); 2: session 25: rules or shading on half the tables, blank cells, a stub spanning two rows (hardStyle)

// hardFirst is the seed before the set's first.
const hardFirst = 3000

// hardStream is the RNG's second word (its own stream).
const hardStream = 0x6b6468617264 // "kdhard"

// hardSet is the hard set as printKinds takes it.
var hardSet = kindsSet{
	name: "hard", first: hardFirst, version: hardVersion, page: hardPage,
	about: "Chromium-printed small unruled tables in tight running text, randomized",
	tuned: "TUNED ON since session 25",
}

// hardMore goes on a value on a second or third line of its cell.
var hardMore = []string{"incl. spare parts", "and annex", "(revised)", "per unit", "second site", "see note 2",
	"as agreed", "north wing", "est. 2027", "from stock", "in reserve", "to be confirmed", "excl. VAT", "all regions"}

// hardPage draws seed's page.
func hardPage(seed uint64) kdPage {
	g := kdGen{rand.New(rand.NewPCG(seed, hardStream))}
	font := g.pick(kdFamilies)
	size := float64(g.n(22, 30)) / 2
	lead := float64(g.n(11, 15)) / 10
	kind := "one"
	var ts []kdTable
	body := ""
	if g.p(0.3) {
		body += g.para(1, 2)
	}
	body += g.tight(1, 3)
	add := func(head bool) {
		t := g.hardTable(head)
		body += g.hardCaption(len(ts))
		body += fmt.Sprintf("{T%d}", len(ts))
		body += g.hardCaption(len(ts))
		ts = append(ts, t)
	}
	add(false)
	if g.p(0.3) {
		kind = "stacked"
		ts[0].css += fmt.Sprintf(`#T{margin-bottom:%dpx}`, g.n(0, 10))
		if g.p(0.3) {
			body += g.tight(1, 1)
		}
		add(true) // a head row tells it from the first
	}
	body += g.tight(1, 2)
	if g.p(0.5) {
		body += g.para(0, 2)
	}
	p := brPage{}
	for i, t := range ts {
		body = strings.Replace(body, fmt.Sprintf("{T%d}", i), t.html(fmt.Sprintf("h%d_%d", seed, i)), 1)
		p.tables = append(p.tables, t.brTable())
	}
	p.body = fmt.Sprintf(`<div style="font-family:%s;font-size:%.1fpx;line-height:%.1f">`, font, size, lead) + body + "</div>"
	if g.p(0.2) { // a paragraph margin now and then, not always tight
		p.body = strings.Replace(p.body, `<p style="margin:0">`, `<p style="margin:0 0 4px 0">`, 1)
	}
	return kdPage{pages: []brPage{p}, kind: kind}
}

// hardCaption is a caption line (asked above and below the table), or
// nothing (most tables have none).
func (g kdGen) hardCaption(i int) string {
	if !g.p(0.2) {
		return ""
	}
	w := strings.Fields(g.sentence())
	w = w[:min(len(w), g.n(4, 8))]
	return fmt.Sprintf(`<p style="margin:0">Table %d%s %s</p>`, i+g.n(1, 4), g.pick([]string{".", ":", " –"}), strings.TrimSuffix(strings.Join(w, " "), "."))
}

// hardTable is a small table of one topic: 2-4 columns, a plain head row
// or none, 2-5 body rows (3-5 with no head), no rules, no shading, a padding of 7-16px
// beside the cells; now and then a text cell wrapped over two or three
// lines. head asks for a head row.
func (g kdGen) hardTable(head bool) kdTable {
	tp := kdTopics[g.r.IntN(len(kdTopics))]
	cols := g.n(2, 4)
	idx := g.r.Perm(len(tp.heads))[:cols]
	for i := 1; i < len(idx); i++ { // the topic's order reads better
		for j := i; j > 0 && idx[j] < idx[j-1]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	css := fmt.Sprintf(`#T{border-collapse:collapse;margin:0}#T td,#T th{padding:%dpx %dpx %dpx 0;text-align:left;vertical-align:%s;font-weight:normal}`,
		g.n(0, 3), g.n(7, 16), g.n(0, 3), g.pick([]string{"top", "top", "baseline", "middle"}))
	if g.p(0.5) {
		css += `#T .n{text-align:right}`
	}
	if g.p(0.2) {
		css += `#T th{font-style:italic}`
	}
	t := kdTable{css: css}
	body := g.n(3, 5) // a head row and two rows, or three rows, at least
	if g.p(0.75) || head {
		var h []kdCell
		for _, c := range idx {
			h = append(h, kh(tp.heads[c]))
		}
		t.rows = append(t.rows, h)
		body = g.n(2, 5)
	}
	wrapP := 0.0
	if g.p(0.4) {
		wrapP = 0.15 + 0.2*g.r.Float64()
	}
	for r := body; r > 0; r-- {
		var row []kdCell
		for i, c := range idx {
			txt := tp.vals[c](g)
			if letters(txt) >= 4 && g.p(wrapP) { // text wraps, numbers seldom do
				for k := g.n(1, 2); k > 0; k-- {
					txt += "\n" + g.pick(hardMore)
				}
			}
			cl := kc(txt)
			if i > 0 {
				cl = cl.with("n")
			}
			row = append(row, cl)
		}
		t.rows = append(t.rows, row)
	}
	g.hardStyle(&t, len(t.rows) > body)
	return t
}

// hardStyle (v2) gives half the tables rules or shading (a full grid,
// a rule under every row, booktabs rules, zebra rows, an outer box),
// blanks a few body cells of a third of them, and lets a stub cell span
// the next row in a fifth (that row's first cell left out); head says
// the first row is the head.
func (g kdGen) hardStyle(t *kdTable, head bool) {
	pad := g.n(3, 8)
	switch g.pick([]string{"none", "none", "none", "grid", "rows", "booktabs", "zebra", "box"}) {
	case "grid":
		t.css += fmt.Sprintf(`#T td,#T th{border:0.75px solid #444;padding-left:%dpx}`, pad)
	case "rows":
		t.css += `#T tr+tr td,#T tr+tr th{border-top:0.75px solid #999}`
	case "booktabs":
		t.css += `#T{border-top:1.5px solid #000;border-bottom:1.5px solid #000}`
		if head {
			t.css += `#T tr:first-child th{border-bottom:0.75px solid #000}`
		}
	case "zebra":
		t.css += fmt.Sprintf(`#T tr:nth-child(even) td{background:#e8ecf0}#T td,#T th{padding-left:%dpx}`, pad)
	case "box":
		t.css += fmt.Sprintf(`#T{border:1px solid #333}#T td,#T th{padding-left:%dpx}`, pad)
	}
	first := 0
	if head {
		first = 1
	}
	if g.p(0.3) {
		for _, row := range t.rows[first:] {
			for i := 1; i < len(row); i++ {
				if g.p(0.1) {
					row[i].text = ""
				}
			}
		}
	}
	if g.p(0.2) && len(t.rows)-first >= 3 {
		r := first + g.n(0, len(t.rows)-first-2)
		t.rows[r][0] = t.rows[r][0].span(2, 1)
		t.rows[r+1] = t.rows[r+1][1:]
	}
}

// letters counts s's letters.
func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}
