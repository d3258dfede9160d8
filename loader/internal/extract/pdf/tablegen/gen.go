// Package tablegen writes one-page PDFs of tables whose structure is known:
// ruled, partly ruled (booktabs), unruled and header-shaded tables with
// wrapped (multi-line) cells, group headers spanning columns, stub columns
// with group labels and indented items, number, year and text columns
// (some with footnote marks, accounts-style negatives or a currency sign
// set apart),
// captions, footnotes, paragraphs above, below and beside, two tables
// stacked or side by side, in Helvetica or Times at 7-10.5 pt with
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

// Table is one truth table: its box on the page (points, top-left origin:
// its text and rules, no caption or notes) and cells.
type Table struct {
	BBox  document.BBox
	Cells []Cell
	Style Style
}

// Doc is one generated page.
type Doc struct {
	Seed   uint64
	Layout string // single, stacked, side, beside, small
	PDF    []byte
	Tables []Table
}

// Version is the generator's version, printed with its figures: pages
// (and so figures) of two versions are not comparable. 2 (session 9):
// footnote marks, accounts-style negatives and a currency sign set apart
// on some tables' values; 1 (session 8): the first.
const Version = 2

// Layouts are the page layouts Generate draws from.
var Layouts = []string{"single", "stacked", "side", "beside", "small"}

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
}

// Generate writes the page of a seed.
func Generate(seed uint64) (Doc, error) {
	r := rand.New(rand.NewPCG(seed, seed*7919+17))
	return GenerateLayout(seed, Layouts[r.IntN(len(Layouts))])
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
	p := &page{r: r, deco: rand.New(rand.NewPCG(seed, seed^0x5eed)), f: f, x: margin, w: pageW - 2*margin, y: float64(60 + r.IntN(20)), body: pick(r, []string{"Helvetica", "Times"})}
	p.title()
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
	default:
		return Doc{}, fmt.Errorf("tablegen: unknown layout %q", layout)
	}
	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		return Doc{}, err
	}
	return Doc{Seed: seed, Layout: layout, PDF: b.Bytes(), Tables: p.tables}, nil
}

func (p *page) title() {
	p.f.SetFont(p.body, "B", float64(12+p.r.IntN(3)))
	p.f.Text(p.x, p.y, phrase(p.r, stubWords, 3+p.r.IntN(4)))
	p.y += 24
}

// para writes n lines of running text in the column (x, w).
func (p *page) para(x, w float64, n int) {
	size := 9.5 + float64(p.r.IntN(2))
	p.f.SetFont(p.body, "", size)
	var lines []string
	text := ""
	for len(lines) < n {
		// sentences run on: a paragraph wraps where the column ends
		text = strings.TrimSpace(text + " " + sentence(p.r, 30+p.r.IntN(30)))
		lines = wrap(p.f.GetStringWidth, text, w)
	}
	lines = lines[:n]
	for i, l := range lines {
		p.f.Text(x, p.y+size, l)
		if i < n-1 {
			p.y += size * 1.25
		}
	}
	p.y += size*1.25 + float64(8+p.r.IntN(8))
}

// table writes a caption (when captioned), a table that fits the column
// (x, w) and the room left on the page, and maybe notes under it.
func (p *page) table(x, w float64, o opts, captioned bool) {
	if captioned {
		p.n++
		p.f.SetFont(p.body, "B", 10)
		cap := fmt.Sprintf("Table %d. %s", p.n, phrase(p.r, stubWords, 2+p.r.IntN(4)))
		for _, l := range wrap(p.f.GetStringWidth, cap, w) {
			p.f.Text(x, p.y+10, l)
			p.y += 12.5
		}
		p.y += float64(4 + p.r.IntN(8))
	}
	room := pageH - 72 - p.y - 60
	var m *measured
	for try := 0; ; try++ {
		m = measure(p.f, decorate(p.deco, randSpec(p.r, o)))
		if m.w <= w && m.h <= room || try == 40 {
			break
		}
		if try%4 == 3 {
			o.maxCols = max(2, o.maxCols-1)
			o.maxRows = max(3, o.maxRows-2)
		}
	}
	t := m.draw(x+m.pad, p.y+4)
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
