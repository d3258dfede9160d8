package tablegen

import (
	"math"

	"codeberg.org/go-pdf/fpdf"

	"github.com/docket-dev/docket/loader/internal/document"
)

// measured is a spec laid out: column widths, each cell's lines, row
// heights. Coordinates are relative to the table's top-left text corner.
type measured struct {
	s      *spec
	f      *fpdf.Fpdf
	widths []float64
	xs     []float64    // left edge of each column
	hdr    int          // header rows (1 or 2)
	lines  [][][]string // [row][col] lines, header rows first
	tops   []float64    // top of each row
	hts    []float64    // height of each row
	w, h   float64
	pad    float64 // distance of a rule from the text (grid, booktabs)
}

const indentW = 8

func (m *measured) width(s string, bold bool) float64 {
	style := ""
	if bold {
		style = "B"
	}
	m.f.SetFont(m.s.font, style, m.s.size)
	return m.f.GetStringWidth(s)
}

func measure(f *fpdf.Fpdf, s *spec) *measured {
	m := &measured{s: s, f: f, hdr: 1, pad: math.Min(s.gap/2, 4)}
	if len(s.groups) > 0 {
		m.hdr = 2
	}
	nc := len(s.cols)
	plain := func(t string) float64 { return m.width(t, false) }
	bold := func(t string) float64 { return m.width(t, s.boldHead) }
	longestWord := func(t string, wf func(string) float64) float64 {
		w := 0.0
		for _, l := range wrap(wf, t, 0) {
			w = math.Max(w, wf(l))
		}
		return w
	}
	m.widths = make([]float64, nc)
	for j, c := range s.cols {
		natural, word := 0.0, longestWord(s.heads[j], bold)
		for i, row := range s.body {
			ind := 0.0
			if j == 0 && s.indent[i] {
				ind = indentW
			}
			natural = math.Max(natural, plain(row[j])+ind)
			word = math.Max(word, longestWord(row[j], plain)+ind)
		}
		switch {
		case c.se:
			// as wide as the widest word (a value or its margin) or the
			// head's, so a value and its margin take a line each
			m.widths[j] = math.Max(word, longestWord(s.heads[j], bold))
		case c.kind == numCol:
			m.widths[j] = math.Max(natural, math.Max(word, math.Min(bold(s.heads[j]), 55)))
		default:
			m.widths[j] = math.Max(word, math.Min(natural, c.cap))
		}
	}
	x := 0.0
	m.xs = make([]float64, nc)
	for j := range m.widths {
		m.xs[j] = x
		x += m.widths[j] + s.gap
	}
	m.w = x - s.gap
	// lines of every cell
	rows := make([][][]string, 0, m.hdr+len(s.body))
	if m.hdr == 2 {
		top := make([][]string, nc)
		for _, g := range s.groups {
			top[g.c0] = wrap(bold, g.text, m.xs[g.c1]+m.widths[g.c1]-m.xs[g.c0])
		}
		rows = append(rows, top)
	}
	head := make([][]string, nc)
	for j := range s.heads {
		head[j] = wrap(bold, s.heads[j], m.widths[j])
	}
	rows = append(rows, head)
	for i, row := range s.body {
		r := make([][]string, nc)
		for j := range row {
			w := m.widths[j]
			if j == 0 && s.indent[i] {
				w -= indentW
			}
			r[j] = wrap(plain, row[j], w)
		}
		rows = append(rows, r)
	}
	m.lines = rows
	m.place()
	return m
}

// place sets the rows' tops and heights and the table's height from its
// lines.
func (m *measured) place() {
	s := m.s
	m.tops, m.hts = nil, nil
	y := 0.0
	vpad := 0.0
	if s.style == Grid || s.style == Shaded {
		vpad = 2 + s.size*0.2
	}
	for i, r := range m.lines {
		n := 1
		for _, c := range r {
			n = max(n, len(c))
		}
		if i > 0 {
			y += s.rowGap + 2*vpad
			if i == m.hdr && s.style != Grid {
				y += s.size * 0.5 // a header stands apart from the body
			}
		}
		m.tops = append(m.tops, y)
		m.hts = append(m.hts, float64(n)*s.lead)
		y += float64(n) * s.lead
	}
	m.h = y
}

// part is the table's header rows over body rows i0..i1-1: the part of a
// table set on one page when it runs on to the next, the header
// repeated, the columns as wide as the whole table's.
func (m *measured) part(i0, i1 int) *measured {
	s := *m.s
	s.body, s.indent = m.s.body[i0:i1], m.s.indent[i0:i1]
	p := *m
	p.s = &s
	p.lines = append(append([][][]string(nil), m.lines[:m.hdr]...), m.lines[m.hdr+i0:m.hdr+i1]...)
	p.place()
	return &p
}

// truthCells are the table's cells as the scorer reads them: header rows
// first, group headers spanning their columns, in a grid a column head
// without a group over it spanning both header rows.
func (m *measured) truthCells() []Cell {
	s := m.s
	var out []Cell
	covered := map[[2]int]bool{}
	if m.hdr == 2 {
		for _, g := range s.groups {
			out = append(out, Cell{R0: 0, C0: g.c0, R1: 0, C1: g.c1, Text: g.text})
			for j := g.c0; j <= g.c1; j++ {
				covered[[2]int{0, j}] = true
			}
		}
		for j := range s.cols {
			if covered[[2]int{0, j}] {
				continue
			}
			if s.style == Grid {
				out = append(out, Cell{R0: 0, C0: j, R1: 1, C1: j, Text: s.heads[j]})
				covered[[2]int{1, j}] = true
			} else {
				out = append(out, Cell{R0: 0, C0: j, R1: 0, C1: j})
			}
		}
	}
	for j, h := range s.heads {
		if !covered[[2]int{m.hdr - 1, j}] {
			out = append(out, Cell{R0: m.hdr - 1, C0: j, R1: m.hdr - 1, C1: j, Text: h})
		}
	}
	for i, row := range s.body {
		for j, t := range row {
			out = append(out, Cell{R0: m.hdr + i, C0: j, R1: m.hdr + i, C1: j, Text: t})
		}
	}
	return out
}

// draw writes the table with its text's top-left corner at (x, y) and
// returns its truth.
func (m *measured) draw(x, y float64) Table {
	s, f := m.s, m.f
	bb := document.BBox{X0: math.Inf(1), Y0: math.Inf(1), X1: math.Inf(-1), Y1: math.Inf(-1)}
	grow := func(x0, y0, x1, y1 float64) {
		bb.X0, bb.Y0 = math.Min(bb.X0, x0), math.Min(bb.Y0, y0)
		bb.X1, bb.Y1 = math.Max(bb.X1, x1), math.Max(bb.Y1, y1)
	}
	left, right := x-m.pad, x+m.w+m.pad
	vpad := 2 + s.size*0.2
	top, bottom := y-vpad, y+m.h+vpad
	headBottom := y + m.tops[m.hdr-1] + m.hts[m.hdr-1]
	bodyTop := y + m.tops[m.hdr]
	midHead := (headBottom + bodyTop) / 2
	if s.style == Shaded {
		f.SetFillColor(210, 210, 210)
		f.Rect(left, top, right-left, midHead-top, "F")
		grow(left, top, right, midHead)
	}
	// text
	for i, row := range m.lines {
		isHead := i < m.hdr
		style := ""
		if isHead && s.boldHead {
			style = "B"
		}
		f.SetFont(s.font, style, s.size)
		n := int(math.Round(m.hts[i] / s.lead))
		for j, ls := range row {
			if len(ls) == 0 {
				continue
			}
			first := 0
			switch {
			case isHead:
				first = n - len(ls)
			case s.cols[j].kind == numCol && s.valignBot:
				first = n - len(ls)
			}
			cx0, cw := m.xs[j], m.widths[j]
			if i == 0 && m.hdr == 2 {
				for _, g := range s.groups {
					if g.c0 == j {
						cw = m.xs[g.c1] + m.widths[g.c1] - cx0
					}
				}
			}
			if j == 0 && i >= m.hdr && s.indent[i-m.hdr] {
				cx0 += indentW
				cw -= indentW
			}
			for k, l := range ls {
				if l == "" {
					continue // room kept for lines drawn by the layout (sublines)
				}
				lw := f.GetStringWidth(l)
				lx := cx0
				switch {
				case isHead && j > 0:
					lx = cx0 + (cw-lw)/2
				case !isHead && s.cols[j].kind == numCol:
					lx = cx0 + cw - lw
				}
				base := y + m.tops[i] + float64(first+k)*s.lead + s.size*0.8
				f.Text(x+lx, base, l)
				grow(x+lx, base-0.72*s.size, x+lx+lw, base+0.22*s.size)
			}
		}
	}
	// rules
	f.SetLineWidth(0.5)
	f.SetDrawColor(0, 0, 0)
	hl := func(x0, x1, yy float64) { f.Line(x0, yy, x1, yy); grow(x0, yy, x1, yy) }
	vl := func(xx, y0, y1 float64) { f.Line(xx, y0, xx, y1); grow(xx, y0, xx, y1) }
	groupRule := func(yy float64) {
		for _, g := range s.groups {
			hl(x+m.xs[g.c0]-m.pad, x+m.xs[g.c1]+m.widths[g.c1]+m.pad, yy)
		}
	}
	switch s.style {
	case Grid:
		hl(left, right, top)
		hl(left, right, bottom)
		for i := 1; i < len(m.tops); i++ {
			yy := y + (m.tops[i-1]+m.hts[i-1]+m.tops[i])/2
			if i == 1 && m.hdr == 2 {
				groupRule(yy)
				continue
			}
			hl(left, right, yy)
		}
		row1 := y + (m.tops[0]+m.hts[0]+m.tops[1])/2
		vl(left, top, bottom)
		vl(right, top, bottom)
		for j := 1; j < len(m.xs); j++ {
			xx := x + m.xs[j] - s.gap/2
			y0 := top
			for _, g := range s.groups {
				if j > g.c0 && j <= g.c1 {
					y0 = row1
				}
			}
			vl(xx, y0, bottom)
		}
	case Booktabs:
		hl(left, right, top)
		if m.hdr == 2 {
			groupRule(y + (m.tops[0]+m.hts[0]+m.tops[1])/2)
		}
		hl(left, right, midHead)
		hl(left, right, bottom)
	case Shaded:
		if len(s.body)%2 == 0 {
			hl(left, right, bottom)
		}
	}
	return Table{BBox: bb, Cells: m.truthCells(), Style: s.style}
}
