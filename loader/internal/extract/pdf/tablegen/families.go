package tablegen

// v4's layouts: the classes the held-out misses name that v1-v3 drew
// seldom or never. Each writes its tables without notes, uncaptioned, so
// nothing but the page's spacing sets them apart.

// bareTable writes a table that fits the column (x, w) and the room left
// on the page, no caption and no notes, and leaves p.y gap under it.
func (p *page) bareTable(x, w float64, o opts, gap float64) *measured {
	room := pageH - 72 - p.y - 60
	m := p.fit(w, room, o, func(m *measured) bool { return m.h <= room })
	t := m.draw(x+m.pad, p.y+4)
	t.Page = p.pageNo
	p.tables = append(p.tables, t)
	p.y = t.BBox.Y1 + gap
	return m
}

// closeLines writes n lines of running text across the text column
// (p.x, p.w) at the given size and pitch, the first baseline a size under
// p.y, and leaves p.y gap under the last line's foot.
func (p *page) closeLines(size, pitch float64, n int, gap float64) {
	for i, l := range p.prose(p.body, size, p.w, n) {
		p.f.Text(p.x, p.y+size+float64(i)*pitch, l)
	}
	p.y += size + float64(n-1)*pitch + size*0.25 + gap
}

// closePara: paragraphs right above and right under an uncaptioned table,
// as close as their own lines (a line's gap to a couple of points more),
// in the table's size or the body's.
func (p *page) closePara() {
	r := p.r
	p.para(p.x, p.w, 2)
	size := 9.0 + float64(r.IntN(3))*0.5
	pitch := size * (1.15 + 0.15*r.Float64())
	gap := pitch - size + float64(r.IntN(4))
	p.closeLines(size, pitch, 2+r.IntN(3), gap)
	o := opts{maxCols: 5, maxRows: 8}
	if r.IntN(2) == 0 {
		o.style, o.styled = Style(r.IntN(2))+Unruled, true
	}
	p.bareTable(p.x+float64(r.IntN(3))*12, p.w-24, o, gap+float64(r.IntN(3)))
	p.closeLines(size, pitch, 2+r.IntN(3), 12)
}

// stackedTight: two uncaptioned tables one under the other, a line or two
// apart, in the same font, size and ruling (a header row each).
func (p *page) stackedTight() {
	r := p.r
	p.para(p.x, p.w, 2)
	o := opts{maxCols: 5, maxRows: 7}
	if r.IntN(3) > 0 {
		o.style, o.styled = Style(r.IntN(3))+Booktabs, true
	}
	m := p.bareTable(p.x, p.w, o, 0)
	p.y += m.s.lead * (0.5 + r.Float64()*1.5)
	o.like = m.s
	p.bareTable(p.x, p.w, o, 14)
	p.para(p.x, p.w, 2)
}

// sideTight: two uncaptioned tables side by side, their tops level, in
// the same font, size, leading and ruling, so their rows share baselines
// while they have as many; the gutter between them wider than their
// column gaps but not by much.
func (p *page) sideTight() {
	r := p.r
	p.para(p.x, p.w, 2)
	o := opts{maxCols: 3, maxRows: 8}
	if r.IntN(3) > 0 {
		o.style, o.styled = Style(r.IntN(3))+Booktabs, true
	}
	y0 := p.y
	half := p.w * 0.46
	m := p.bareTable(p.x, half, o, 0)
	y1 := p.y
	p.y = y0
	gut := m.s.gap*1.5 + float64(6+r.IntN(12))
	x2 := p.x + (m.w + 2*m.pad) + gut
	o.like = m.s
	p.bareTable(x2, p.x+p.w-x2, o, 0)
	p.y = max(p.y, y1) + 16
	p.para(p.x, p.w, 2)
}

// smallText: small unruled tables of two or three columns, often text
// only, uncaptioned, in the run of the text between paragraphs.
func (p *page) smallText() {
	r := p.r
	p.para(p.x, p.w, 2+r.IntN(3))
	for k := 0; k < 1+r.IntN(2); k++ {
		o := opts{maxCols: 3, maxRows: 5, small: true, textOnly: r.IntN(3) > 0, style: Unruled, styled: true}
		p.bareTable(p.x+float64(r.IntN(4))*10, p.w*0.6, o, 12+float64(r.IntN(8)))
		p.para(p.x, p.w, 1+r.IntN(3))
	}
}

// bodyWrap: multi-line cells in the body columns, not only the stub:
// values over their margin of error, and text cells that wrap, in a
// table with row gaps or without.
func (p *page) bodyWrap() {
	r := p.r
	p.para(p.x, p.w, 2+r.IntN(2))
	o := opts{maxCols: 6, maxRows: 9, margins: r.IntN(3) > 0}
	o.wrapText = !o.margins || r.IntN(2) == 0
	p.table(p.x, p.w, o, r.IntN(2) == 0)
	p.para(p.x, p.w, 2)
}
