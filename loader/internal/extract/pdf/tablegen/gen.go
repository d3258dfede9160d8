// Package tablegen writes PDFs of tables whose structure is known:
// ruled, partly ruled (booktabs), unruled and header-shaded tables with
// wrapped (multi-line) cells, group headers spanning columns, stub columns
// with group labels and indented items, number, year and text columns
// (some with footnote marks, accounts-style negatives or a currency sign
// set apart),
// captions, footnotes, paragraphs above, below and beside (one at the
// table's own row pitch), two tables stacked or side by side (text-only
// ones too), column heads wrapping, a table running on to a second page
// with its header repeated, paragraphs as close to a table as their own
// lines, uncaptioned tables a line apart or side by side on the same
// baselines, small text-only tables in the run of the text, values over
// their margin of error, tables ending just above a page footer, body rows
// in groups between group rules, in Helvetica or Times at 7-10.5 pt with
// varied column gaps and row spacing. The same seed gives the same PDF.
//
// It is the table detector's generated benchmark (eval-tables prints it in
// a tune and a report split of seeds) and the source of its tests'
// fixtures; it is not linked into docket.
package tablegen

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"github.com/docket-dev/docket/loader/internal/document"
)

// Cell is one truth cell covering rows R0..R1 and columns C0..C1 (header
// rows first), its lines joined by a space.
type Cell struct {
	R0, C0, R1, C1 int
	Text           string
}

// Table is one truth table: its box on its page (points, top-left origin:
// its text and rules, no caption or notes) and cells. A table running on
// to the next page is two truth tables, one per page, the second with the
// header repeated (as ICDAR 2013 records a table's regions).
type Table struct {
	Page  int // 1-based
	BBox  document.BBox
	Cells []Cell
	Style Style
}

// Doc is one generated page.
type Doc struct {
	Seed   uint64
	Layout string // one of Layouts
	PDF    []byte
	Tables []Table
	// Furniture are the running heads', footers' and exhibit lines'
	// parts the page shows (layouts footer and runhead): none a table's.
	Furniture []Mark
}

// Version is the generator's version, printed with its figures: pages
// (and so figures) of two versions are not comparable. 10 (session 23,
// lead): a value in sublines' lists may be "*" (tables23 had left it out
// of v8 because the detector ended a table at it; review23 item 1: the
// generator must not avoid what the detector misses); the rest is v9's.
// 9 (session 23):
// sublines' value lists run to 4-7 lines 1 time in 5 (1-3 before), the
// last row's description goes on with a list of 1-7 values on one page in
// three, and one list in three has a value's meaning going on on a line of its own
// under the meaning's first word (a line naming no value); the other
// layouts are v8's. 8 (session 23):
// the words of v5's footers and v7's running heads and exhibit lines, and
// of v6's description heads and value lines, are drawn in forms of the
// package's own, several per class (furniture.go; they had followed one
// visible document's wording); the layouts and their draws are v7's.
// 7 (session 22):
// layout runhead (a running head over a rule at the page's top, a table
// starting a line or two under it); a seed draws it 1 time in 10, from a
// stream of its own, and is otherwise v6's page. 6 (session 22):
// layout sublines (a table of record fields whose descriptions go on with
// lines naming the values a field takes, "1 = filed", flush or indented);
// a seed draws it 1 time in 6, from a stream of its own, and is otherwise
// v5's page. 5 (session 21):
// layouts footer (a table ending a line's gap above a page footer, a rule
// across the text column between them 3 times in 4) and groups (body rows
// in groups of two or three between group rules, each group's label
// centred on its rows); a seed draws one of them 1 time in 4, from a
// stream of its own, and is otherwise v4's page. 4 (session 20):
// layouts closepara (paragraphs right above and under an uncaptioned
// table, as close as their own lines), stackedtight (two uncaptioned
// tables a line or two apart, same font and ruling), sidetight (two
// uncaptioned tables side by side, rows on the same baselines, a gutter a
// little wider than their column gaps), smalltext (small unruled two- and
// three-column tables, mostly text only, in the run of the text) and
// bodywrap (multi-line body cells: a value over its margin of error, text
// cells wrapping); a seed draws one of them 1 time in 3, from a stream of
// its own, and is otherwise v3's page. 3 (session 10):
// layouts continued (a table running on to a second page, its header
// repeated), textpair (side by side, one or both tables text only),
// wrapheads (column heads of several words wrapping, a lone one-line head
// beside them, lower-case text cells wrapping in rows set without a gap)
// and leading (a paragraph beside a table at the table's size and row
// pitch, its baselines on the rows'); the pages of the v2 layouts are
// unchanged, a seed draws a new layout 4 times in 9. 2 (session 9):
// footnote marks, accounts-style negatives and a currency sign set apart
// on some tables' values; 1 (session 8): the first.
const Version = 10

// Layouts are the page layouts Generate draws from: v2's five, then v3's
// four, then v4's five, then v5's two, then v6's one, then v7's one.
var Layouts = []string{"single", "stacked", "side", "beside", "small", "continued", "textpair", "wrapheads", "leading",
	"closepara", "stackedtight", "sidetight", "smalltext", "bodywrap",
	"footer", "groups",
	"sublines",
	"runhead"}

const v2Layouts, v3Layouts, v4Layouts, v5Layouts, v6Layouts = 5, 9, 14, 16, 17

// V4Layouts are v4's layouts, the held-out classes v1-v3 drew seldom.
var V4Layouts = Layouts[v3Layouts:v4Layouts]

// V5Layouts are v5's layouts: a table over a page footer, rows in groups
// between rules.
var V5Layouts = Layouts[v4Layouts:v5Layouts]

// V6Layouts are v6's layouts: descriptions going on with lines naming a
// field's values.
var V6Layouts = Layouts[v5Layouts:v6Layouts]

// V7Layouts are v7's layouts: a running head over a table.
var V7Layouts = Layouts[v6Layouts:]

const pageW, pageH = 612.0, 792.0

type page struct {
	r      *rand.Rand
	deco   *rand.Rand // marks set on cell values (a stream of its own, see decorate)
	f      *fpdf.Fpdf
	x, w   float64 // text column
	y      float64 // next free line
	body   string  // prose font
	tables []Table
	n      int // tables captioned so far
	pageNo int // 1-based page drawn on
	marks  []Mark
}

// Generate writes the page of a seed.
func Generate(seed uint64) (Doc, error) {
	r := rand.New(rand.NewPCG(seed, seed*7919+17))
	l := Layouts[r.IntN(v2Layouts)]
	// v3's layouts from a stream of their own, so a seed left on a v2
	// layout draws the page it drew before
	if n := rand.New(rand.NewPCG(seed, seed^0x3a3)); n.IntN(9) < 4 {
		l = Layouts[v2Layouts+n.IntN(v3Layouts-v2Layouts)]
	}
	// and v4's from a third
	if n := rand.New(rand.NewPCG(seed, seed^0x4a4)); n.IntN(3) == 0 {
		l = Layouts[v3Layouts+n.IntN(v4Layouts-v3Layouts)]
	}
	// and v5's from a fourth
	if n := rand.New(rand.NewPCG(seed, seed^0x5a5)); n.IntN(4) == 0 {
		l = Layouts[v4Layouts+n.IntN(v5Layouts-v4Layouts)]
	}
	// and v6's from a fifth
	if n := rand.New(rand.NewPCG(seed, seed^0x6a6)); n.IntN(6) == 0 {
		l = Layouts[v5Layouts+n.IntN(v6Layouts-v5Layouts)]
	}
	// and v7's from a sixth
	if n := rand.New(rand.NewPCG(seed, seed^0x7a7)); n.IntN(10) == 0 {
		l = Layouts[v6Layouts+n.IntN(len(Layouts)-v6Layouts)]
	}
	return GenerateLayout(seed, l)
}

// GenerateLayout writes the page of a seed in the given layout.
func GenerateLayout(seed uint64, layout string) (Doc, error) {
	r := rand.New(rand.NewPCG(seed, seed*104729+3))
	f := fpdf.New("P", "pt", "Letter", "")
	f.SetCompression(false)
	f.SetCatalogSort(true)
	f.SetCreationDate(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	f.SetModificationDate(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	f.SetAutoPageBreak(false, 0)
	f.AddPage()
	margin := float64(54 + r.IntN(20))
	p := &page{pageNo: 1, r: r, deco: rand.New(rand.NewPCG(seed, seed^0x5eed)), f: f, x: margin, w: pageW - 2*margin, y: float64(60 + r.IntN(20)), body: pick(r, []string{"Helvetica", "Times"})}
	if layout != "runhead" {
		p.title()
	}
	switch layout {
	case "single":
		p.para(p.x, p.w, 2+r.IntN(3))
		p.table(p.x, p.w, opts{maxCols: 7, maxRows: 14}, true)
		p.para(p.x, p.w, 2+r.IntN(4))
	case "stacked":
		if r.IntN(2) == 0 {
			p.para(p.x, p.w, 2)
		}
		p.table(p.x, p.w, opts{maxCols: 6, maxRows: 8}, true)
		p.y += float64(r.IntN(20))
		p.table(p.x, p.w, opts{maxCols: 6, maxRows: 8}, r.IntN(2) == 0)
		p.para(p.x, p.w, 2)
	case "side":
		p.para(p.x, p.w, 2+r.IntN(2))
		gut := float64(24 + r.IntN(30))
		half := (p.w - gut) / 2
		y0 := p.y
		p.table(p.x, half, opts{maxCols: 4, maxRows: 10}, true)
		y1 := p.y
		p.y = y0
		p.table(p.x+half+gut, half, opts{maxCols: 4, maxRows: 10}, true)
		p.y = max(p.y, y1)
		p.para(p.x, p.w, 2)
	case "beside":
		p.para(p.x, p.w, 2)
		gut := float64(18 + r.IntN(20))
		tw := p.w * (0.5 + 0.1*r.Float64())
		y0 := p.y
		tx, px := p.x, p.x+tw+gut
		if r.IntN(3) == 0 {
			tx, px = p.x+p.w-tw, p.x
		}
		p.table(tx, tw, opts{maxCols: 4, maxRows: 10}, r.IntN(2) == 0)
		y1 := p.y
		p.y = y0
		lines := int((y1-y0)/12) + r.IntN(3) - 1
		p.para(px, p.w-tw-gut, max(lines, 3))
		p.y = max(p.y, y1)
		p.para(p.x, p.w, 2)
	case "small":
		p.para(p.x, p.w, 3+r.IntN(3))
		p.table(p.x+float64(r.IntN(30)), p.w*0.7, opts{maxCols: 3, maxRows: 5, small: true, style: Unruled, styled: r.IntN(3) > 0}, r.IntN(3) == 0)
		p.para(p.x, p.w, 3+r.IntN(3))
	case "continued":
		p.para(p.x, p.w, 2+r.IntN(10))
		p.continued(p.x, p.w)
		p.para(p.x, p.w, 2+r.IntN(4))
	case "textpair":
		p.para(p.x, p.w, 2+r.IntN(2))
		gut := float64(24 + r.IntN(30))
		half := (p.w - gut) / 2
		y0 := p.y
		both := r.IntN(3) == 0
		first := r.IntN(2) == 0
		p.table(p.x, half, opts{maxCols: 4, maxRows: 10, textOnly: first || both}, true)
		y1 := p.y
		p.y = y0
		p.table(p.x+half+gut, half, opts{maxCols: 4, maxRows: 10, textOnly: !first || both}, true)
		p.y = max(p.y, y1)
		p.para(p.x, p.w, 2)
	case "wrapheads":
		p.para(p.x, p.w, 2+r.IntN(3))
		p.table(p.x, p.w, opts{maxCols: 7, maxRows: 12, longHeads: true, wrapText: r.IntN(2) == 0}, r.IntN(2) == 0)
		p.para(p.x, p.w, 2+r.IntN(3))
	case "leading":
		p.para(p.x, p.w, 2)
		p.leading()
		p.para(p.x, p.w, 2)
	case "closepara":
		p.closePara()
	case "stackedtight":
		p.stackedTight()
	case "sidetight":
		p.sideTight()
	case "smalltext":
		p.smallText()
	case "bodywrap":
		p.bodyWrap()
	case "footer":
		p.footer()
	case "groups":
		p.groups()
	case "sublines":
		p.sublines()
	case "runhead":
		p.runhead()
	default:
		return Doc{}, fmt.Errorf("tablegen: unknown layout %q", layout)
	}
	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		return Doc{}, err
	}
	return Doc{Seed: seed, Layout: layout, PDF: b.Bytes(), Tables: p.tables, Furniture: p.marks}, nil
}

func (p *page) title() {
	p.f.SetFont(p.body, "B", float64(12+p.r.IntN(3)))
	p.f.Text(p.x, p.y, phrase(p.r, stubWords, 3+p.r.IntN(4)))
	p.y += 24
}

// para writes n lines of running text in the column (x, w).
func (p *page) para(x, w float64, n int) {
	size := 9.5 + float64(p.r.IntN(2))
	lines := p.prose(p.body, size, w, n)
	for i, l := range lines {
		p.f.Text(x, p.y+size, l)
		if i < n-1 {
			p.y += size * 1.25
		}
	}
	p.y += size*1.25 + float64(8+p.r.IntN(8))
}

// prose is n lines of running text in a column w wide, the font set.
func (p *page) prose(font string, size, w float64, n int) []string {
	p.f.SetFont(font, "", size)
	var lines []string
	text := ""
	for len(lines) < n {
		// sentences run on: a paragraph wraps where the column ends
		text = strings.TrimSpace(text + " " + sentence(p.r, 30+p.r.IntN(30)))
		lines = wrap(p.f.GetStringWidth, text, w)
	}
	return lines[:n]
}

// table writes a caption (when captioned), a table that fits the column
// (x, w) and the room left on the page, and maybe notes under it.
func (p *page) table(x, w float64, o opts, captioned bool) *measured {
	if captioned {
		p.caption(x, w, fmt.Sprintf("Table %d. %s", p.n+1, phrase(p.r, stubWords, 2+p.r.IntN(4))))
		p.n++
		p.y += float64(4 + p.r.IntN(8))
	}
	room := pageH - 72 - p.y - 60
	m := p.fit(w, room, o, func(m *measured) bool { return m.h <= room })
	p.drawn(m, x, m.draw(x+m.pad, p.y+4))
	return m
}

// caption writes a caption's lines in the column (x, w).
func (p *page) caption(x, w float64, text string) {
	p.f.SetFont(p.body, "B", 10)
	for _, l := range wrap(p.f.GetStringWidth, text, w) {
		p.f.Text(x, p.y+10, l)
		p.y += 12.5
	}
}

// fit draws specs until one is no wider than w and ok (40 tries, smaller
// now and then).
func (p *page) fit(w, room float64, o opts, ok func(*measured) bool) *measured {
	var m *measured
	for try := 0; ; try++ {
		m = measure(p.f, decorate(p.deco, randSpec(p.r, o)))
		if m.w <= w && ok(m) || try == 40 {
			return m
		}
		if try%4 == 3 {
			o.maxCols = max(2, o.maxCols-1)
			o.maxRows = max(3, o.maxRows-2)
		}
	}
}

// drawn records a table drawn in the column at x and writes notes under
// it, maybe.
func (p *page) drawn(m *measured, x float64, t Table) {
	t.Page = p.pageNo
	p.tables = append(p.tables, t)
	p.y = t.BBox.Y1 + 6
	if p.r.IntN(2) == 0 {
		size := m.s.size - 1
		p.f.SetFont(m.s.font, "", size)
		for k := 0; k < 1+p.r.IntN(2); k++ {
			p.f.Text(x, p.y+size, pick(p.r, notes))
			p.y += size * 1.3
		}
	}
	p.y += float64(10 + p.r.IntN(12))
}

// continued writes a captioned table too long for the room left on the
// page: the rows that fit, then on a new page (maybe under a "continued"
// line) the header again and the other rows, the columns as wide as on
// the first page.
func (p *page) continued(x, w float64) {
	p.caption(x, w, fmt.Sprintf("Table %d. %s", p.n+1, phrase(p.r, stubWords, 2+p.r.IntN(4))))
	p.n++
	p.y += float64(4 + p.r.IntN(8))
	room := pageH - 60 - p.y - 4
	m := p.fit(w, room, opts{maxCols: 6, maxRows: 40}, func(m *measured) bool {
		return len(m.s.body) >= 8 && m.h < room+pageH-200
	})
	k := 0
	for i := range m.s.body {
		if m.tops[m.hdr+i]+m.hts[m.hdr+i] <= room {
			k = i + 1
		}
	}
	k = max(3, min(k, len(m.s.body)-3-p.r.IntN(3)))
	first := m.part(0, k)
	t := first.draw(x+m.pad, p.y+4)
	t.Page = p.pageNo
	p.tables = append(p.tables, t)
	p.f.AddPage()
	p.pageNo++
	p.y = float64(60 + p.r.IntN(20))
	if p.r.IntN(2) == 0 {
		p.caption(x, w, fmt.Sprintf("Table %d (continued)", p.n))
		p.y += 4
	}
	rest := m.part(k, len(m.s.body))
	p.drawn(rest, x, rest.draw(x+m.pad, p.y+4))
}

// leading writes an unruled or booktabs table and beside it a paragraph
// in the table's size whose lines fall on the table's body rows: the same
// pitch, the baselines on the rows' first lines.
func (p *page) leading() {
	r := p.r
	gut := float64(18 + r.IntN(20))
	tw := p.w * (0.5 + 0.1*r.Float64())
	tx, px := p.x, p.x+tw+gut
	if r.IntN(3) == 0 {
		tx, px = p.x+p.w-tw, p.x
	}
	y0 := p.y
	m := p.table(tx, tw, opts{maxCols: 4, maxRows: 10, style: Style(r.IntN(2)) + Booktabs, styled: true}, false)
	y1 := p.y
	s := m.s
	font := pick(r, []string{p.body, s.font})
	lines := p.prose(font, s.size, p.w-tw-gut, len(s.body)+r.IntN(3))
	base := y0 + 4 + m.tops[m.hdr] + s.size*0.8
	for i, l := range lines {
		p.f.Text(px, base+float64(i)*(s.lead+s.rowGap), l)
	}
	p.y = max(y1, base+float64(len(lines))*(s.lead+s.rowGap)+10)
}
