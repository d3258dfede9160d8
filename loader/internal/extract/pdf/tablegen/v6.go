package tablegen

import (
	"fmt"
	"strings"
)

// v6's layout (session 22): a table of codes whose descriptions go on
// with lines naming the values a field takes; and v7's (session 22): a
// running head over a rule at the page's top, a table right under it.

// sublines: a table of record fields (one to three code columns, then a
// description), some descriptions followed by one to three lines naming
// the values the field takes ("1 = filed", "X - exempt", "blank: none"),
// set under the description at the cell's line pitch, flush with it or
// indented up to 16pt, in its size or a little smaller; the codes on the
// row's first line only. The value lines are the description's: its truth
// cell holds them after it. Unruled (heads in capitals or not, bold or
// not) or booktabs, in the body's font or the other.
func (p *page) sublines() {
	r := p.r
	p.para(p.x, p.w, 2+r.IntN(2))
	p.captionOnce(3)
	s := codeSpec(p)
	m := measure(p.f, s)
	desc := len(s.cols) - 1
	indent := float64(r.IntN(3)) * 8
	size := s.size - float64(r.IntN(3))*0.5
	subs := make([][]subLine, len(s.body))
	n := 0
	last := r.IntN(3) == 0 // v9: the last row's description goes on with a list of 1-7 values
	for i := range s.body {
		if r.IntN(4) == 0 || i == 1 && n == 0 || last && i == len(s.body)-1 {
			k := 1 + r.IntN(3)
			if last && i == len(s.body)-1 {
				k = 1 + r.IntN(7)
			} else if r.IntN(5) == 0 {
				k = 4 + r.IntN(4) // v9: a longer list
			}
			subs[i] = valueLines(p, k, s.font, size)
			n++
			// room for them: empty lines in the description's cell
			for range subs[i] {
				m.lines[m.hdr+i][desc] = append(m.lines[m.hdr+i][desc], "")
			}
		}
	}
	m.place()
	x, y := p.x+m.pad, p.y+4
	t := m.draw(x, y)
	p.f.SetFont(s.font, "", size)
	for i, ls := range subs {
		for k, l := range ls {
			lx := x + m.xs[desc] + indent + l.dx
			base := y + m.tops[m.hdr+i] + float64(1+k)*s.lead + s.size*0.8
			p.f.Text(lx, base, l.text)
			t.BBox.X1 = max(t.BBox.X1, lx+p.f.GetStringWidth(l.text))
			t.BBox.Y1 = max(t.BBox.Y1, base+0.22*size)
		}
	}
	for k, c := range t.Cells {
		if i := c.R0 - m.hdr; i >= 0 && c.C0 == desc && len(subs[i]) > 0 {
			for _, l := range subs[i] {
				c.Text += " " + l.text
			}
			t.Cells[k].Text = c.Text
		}
	}
	t.Page = p.pageNo
	p.tables = append(p.tables, t)
	p.y = t.BBox.Y1 + 16
	p.para(p.x, p.w, 2)
}

// codeSpec is a table of record fields: one to three code columns (a
// line number the rows share in runs, positions "17-22", a letter code)
// and a description one line long, 6 to 16 rows.
func codeSpec(p *page) *spec {
	r := p.r
	s := &spec{
		font:     pick(r, []string{p.body, "Helvetica", "Times"}),
		size:     float64(8 + r.IntN(3)),
		boldHead: r.IntN(2) == 0,
		style:    pick(r, []Style{Unruled, Unruled, Booktabs}),
		gap:      float64(14 + r.IntN(30)),
	}
	s.lead = s.size * (1.1 + 0.15*r.Float64())
	if r.IntN(2) == 0 {
		s.rowGap = s.size * 0.3 * r.Float64()
	}
	caps := r.IntN(2) == 0
	head := func(hs []string) string {
		h := pick(r, hs)
		if caps {
			h = strings.ToUpper(h)
		}
		return h
	}
	kinds := []int{0, 1, 2}[:1+r.IntN(3)]
	if r.IntN(3) == 0 {
		kinds = kinds[1:] // no line numbers
		if len(kinds) == 0 {
			kinds = []int{1}
		}
	}
	for _, k := range kinds {
		s.cols = append(s.cols, column{kind: numCol})
		s.heads = append(s.heads, head([][]string{
			{"Line", "Record", "Screen line"},
			{"Position", "Columns", "Offset", "Pos."},
			{"Code", "Type", "Key"}}[k]))
	}
	s.cols = append(s.cols, column{kind: textCol, cap: 400})
	s.heads = append(s.heads, head([]string{"Description", "Explanation", "Meaning", "Field", "Contents", "What it holds", "Use and checks"}))
	nr := 6 + r.IntN(11)
	line, pos := 1+r.IntN(20), 1
	for i := 0; i < nr; i++ {
		row := make([]string, len(s.cols))
		for j, k := range kinds {
			switch k {
			case 0:
				if i > 0 && r.IntN(3) == 0 {
					line++
					pos = 1
				}
				row[j] = fmt.Sprint(line)
			case 1:
				w := r.IntN(12)
				if w == 0 {
					row[j] = fmt.Sprintf("%02d", pos)
				} else {
					row[j] = fmt.Sprintf("%02d-%02d", pos, pos+w)
				}
				pos += w + 1 + r.IntN(6)
			case 2:
				row[j] = fmt.Sprintf("%c%d", 'A'+rune(r.IntN(8)), 1+r.IntN(9))
			}
		}
		row[len(row)-1] = phrase(r, stubWords, 1+r.IntN(3)) + " " + pick(r, fieldWords)
		s.body = append(s.body, row)
		s.indent = append(s.indent, false)
	}
	return s
}

var fieldWords = []string{"Code", "Indicator", "Date", "Amount", "Number", "Flag", "Status", "Type", "Count"}

// subLine is a line set under a description: a value line, or the rest
// of one's meaning going on under its words (dx: how far right of the
// value lines' start).
type subLine struct {
	text string
	dx   float64
}

// valueLines are n values each named with what it means, in one of a few
// forms, in the given font; since v9 one list in three has a meaning going
// on on the next line under its first word, a line that names no value.
func valueLines(p *page, n int, font string, size float64) []subLine {
	r := p.r
	form := pick(r, []string{"%s = %s", "%s - %s", "%s: %s", "%s -- %s"})
	wrap := -1
	if r.IntN(3) == 0 {
		wrap = r.IntN(n)
	}
	var out []subLine
	for k := 0; k < n; k++ {
		v := pick(r, []string{"none", "empty", "0", "1", "2", "9", "00", "A", "B", "R", "X", "Y", "N", "01-99", "10-49", "*"})
		out = append(out, subLine{text: fmt.Sprintf(form, v, pick(r, textWords))})
		if k == wrap {
			pre := strings.TrimSuffix(fmt.Sprintf(form, v, "#"), "#")
			p.f.SetFont(font, "", size)
			out = append(out, subLine{text: pick(r, moreWords), dx: p.f.GetStringWidth(pre)})
		}
	}
	return out
}

// moreWords go on with a value's meaning on a line of their own.
var moreWords = []string{"unless a later entry replaces it", "when the office has checked it", "for the whole period",
	"and no other value applies", "until the next return is filed", "as reported by the unit"}

// captionOnce writes a caption over the next table 1 time in n.
func (p *page) captionOnce(n int) {
	r := p.r
	if r.IntN(n) == 0 {
		p.caption(p.x, p.w, fmt.Sprintf("Table %d. %s", p.n+1, phrase(r, stubWords, 2+r.IntN(4))))
		p.n++
		p.y += float64(4 + r.IntN(8))
	}
}

// runhead: a page whose running head (a page number at one edge of the
// text column, where the page stands at the other: pageNumber and
// sectionHead, now and then a part centred; in the body's font a size or two
// smaller, upright or italic) stands over a rule across the text column
// (3 times in 4), and a table starts a line or two under it: right under
// the rule, or under a line naming the exhibit (exhibitLine) and maybe a
// title, with no paragraph between (1 time in 3 a short one). The head is
// not the table's. No page title: the running head is the page's top.
func (p *page) runhead() {
	r := p.r
	size := 9.0 - float64(r.IntN(3))*0.5
	style := pick(r, []string{"", "", "I"})
	p.f.SetFont(p.body, style, size)
	base := p.y - 24
	left, right := pageNumber(r), sectionHead(r)
	if r.IntN(2) == 0 {
		left, right = right, left // a left-hand page
	}
	p.mark(p.x, base, left)
	if r.IntN(3) == 0 {
		c := phrase(r, stubWords, 2)
		p.mark(p.x+(p.w-p.f.GetStringWidth(c))/2, base, c)
	}
	p.mark(p.x+p.w-p.f.GetStringWidth(right), base, right)
	y := base + size*0.3
	if r.IntN(4) > 0 {
		y += 2 + float64(r.IntN(3))
		p.f.SetLineWidth(0.5 + 0.5*float64(r.IntN(2)))
		p.f.Line(p.x, y, p.x+p.w, y)
	}
	p.y = y + 4 + float64(r.IntN(6))
	if r.IntN(2) == 0 {
		p.f.SetFont(p.body, "", 9+float64(r.IntN(2)))
		p.mark(p.x, p.y+9, exhibitLine(r))
		p.y += 12
		if r.IntN(2) == 0 {
			p.mark(p.x, p.y+9, phrase(r, stubWords, 3+r.IntN(3))+" "+pick(r, fieldWords))
			p.y += 12
		}
		p.y += float64(4 + r.IntN(10))
	}
	if r.IntN(3) == 0 {
		p.para(p.x, p.w, 2)
	}
	o := opts{maxCols: 5, maxRows: 12}
	if r.IntN(2) == 0 {
		o.style, o.styled = Style(r.IntN(2))+Booktabs, true
	}
	p.bareTable(p.x+float64(r.IntN(3))*8, p.w-16, o, 14)
	p.para(p.x, p.w, 2+r.IntN(2))
}
