package tablegen

// v5's layouts (session 21): a table ending just above a page footer, and
// body rows in groups of two or three set between group rules.

// footer: a table running down to the page's footer: under its last row,
// a line's gap or less, a rule across the text column (3 times in 4) and
// the footer's parts on one line (a left part, a centred one, a right one
// that may go on for a line or two: footerLeft, footerRef), in the
// body's font a size or two smaller. The footer is not the table's.
func (p *page) footer() {
	r := p.r
	p.para(p.x, p.w, 2+r.IntN(3))
	o := opts{maxCols: 5, maxRows: 30}
	if r.IntN(2) == 0 {
		o.style, o.styled = Unruled, true
	}
	p.captionOnce(3)
	m := p.bareTable(p.x+float64(r.IntN(3))*10, p.w-20, o, 0)
	size := m.s.size - float64(r.IntN(3))*0.5
	y := p.y + m.s.lead*(0.3+0.7*r.Float64())
	if r.IntN(4) > 0 {
		p.f.SetLineWidth(0.5 + 0.5*float64(r.IntN(2)))
		p.f.Line(p.x, y, p.x+p.w, y)
		y += 2 + float64(r.IntN(3))
	}
	p.f.SetFont(p.body, "", size)
	base := y + size
	left := footerLeft(r)
	centre := phrase(r, stubWords, 2+r.IntN(2))
	right := footerRef(r)
	if r.IntN(2) == 0 {
		left, right[0] = right[0], left // the parts the other way round on a left-hand page
	}
	p.mark(p.x, base, left)
	if r.IntN(4) > 0 {
		p.mark(p.x+(p.w-p.f.GetStringWidth(centre))/2, base, centre)
	}
	for i, l := range right {
		p.mark(p.x+p.w-p.f.GetStringWidth(l), base+float64(i)*size*1.15, l)
	}
	p.y = base + float64(len(right))*size*1.15 + 10
}

// groups: a booktabs table whose body rows come in groups of two or three
// (the first may be one row) with a rule across the table between groups,
// the group's label in the first column centred on the group's lines (on
// the middle line of three, between the lines of two), each row's own
// label in the second column, numbers right of it; the rows set at the
// lines' pitch or a little apart. The label's truth cell spans its group's
// rows.
func (p *page) groups() {
	r := p.r
	p.para(p.x, p.w, 2+r.IntN(2))
	p.captionOnce(2)
	var sizes []int
	n := 0
	for k := 0; k < 2+r.IntN(3); k++ {
		g := 2 + r.IntN(2)
		if k == 0 && r.IntN(3) == 0 {
			g = 1
		}
		sizes = append(sizes, g)
		n += g
	}
	var m *measured
	for try := 0; ; try++ {
		s := randSpec(p.r, opts{maxCols: 7, maxRows: 4, small: true, style: Booktabs, styled: true})
		s.rowGap = s.size * 0.3 * float64(r.IntN(2))
		s.groups = nil
		// a group label column before the spec's stub (the rows' labels)
		s.cols = append([]column{{kind: stubCol, cap: 60}}, s.cols...)
		s.heads = append([]string{pick(r, []string{"Training", "Group", "Setting", "Type", "Model"})}, s.heads...)
		s.heads[1] = pick(r, []string{"Method", "Item", "Retriever", "Variant", "Source"})
		s.body, s.indent = nil, nil
		for _, g := range sizes {
			label := phrase(r, stubWords, 1)
			for k := 0; k < g; k++ {
				row := make([]string, len(s.cols))
				if k == 0 {
					row[0] = label
				}
				row[1] = phrase(r, stubWords, 1+r.IntN(2))
				for j := 2; j < len(s.cols); j++ {
					row[j] = number(r, s.cols[j].num, s.cols[j].mag)
				}
				s.body = append(s.body, row)
				s.indent = append(s.indent, false)
			}
		}
		m = measure(p.f, s)
		if m.w <= p.w-20 && onePerLine(m) || try == 40 {
			break
		}
	}
	// room for the group rules: the rows after each group move down
	sep := 2 + m.s.size*0.3
	first := m.hdr
	for _, g := range sizes[:len(sizes)-1] {
		first += g
		for i := first; i < len(m.tops); i++ {
			m.tops[i] += sep
		}
		m.h += sep
	}
	// the labels are drawn centred on their groups, not in the first row
	labels := make([]string, len(sizes))
	row := m.hdr
	for gi, g := range sizes {
		labels[gi] = m.s.body[row-m.hdr][0]
		m.lines[row][0] = nil
		row += g
	}
	x, y := p.x+m.pad, p.y+4
	t := m.draw(x, y)
	p.f.SetFont(m.s.font, "", m.s.size)
	row = m.hdr
	left, right := x-m.pad, x+m.w+m.pad
	for gi, g := range sizes {
		top := y + m.tops[row] + m.s.size*0.8
		bot := y + m.tops[row+g-1] + m.s.size*0.8
		p.f.Text(x, (top+bot)/2, labels[gi])
		if gi > 0 {
			yy := y + (m.tops[row-1]+m.hts[row-1]+m.tops[row])/2
			p.f.Line(left, yy, right, yy)
		}
		row += g
	}
	// the label's cell spans its group; the empty cells under it go
	var cells []Cell
	row = m.hdr
	spans := map[int]int{}
	for _, g := range sizes {
		spans[row] = row + g - 1
		row += g
	}
	for _, c := range t.Cells {
		if c.C0 == 0 && c.R0 >= m.hdr {
			end, ok := spans[c.R0]
			if !ok {
				continue
			}
			c.R1 = end
		}
		cells = append(cells, c)
	}
	t.Cells = cells
	t.Page = p.pageNo
	p.tables = append(p.tables, t)
	p.y = t.BBox.Y1 + 14
	p.para(p.x, p.w, 2)
}

// onePerLine: every body cell of m takes one line.
func onePerLine(m *measured) bool {
	for _, r := range m.lines[m.hdr:] {
		for _, c := range r {
			if len(c) > 1 {
				return false
			}
		}
	}
	return true
}
