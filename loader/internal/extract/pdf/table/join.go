package table

import (
	"github.com/docket-dev/docket/loader/internal/document"
)

// textFound is an unruled table with the lines it was read from.
type textFound struct {
	t     document.Table
	lines []*textLine
	says  bool // the layout says table (rules, bold header)
}

// joinSplit joins an unruled table with the one just under it when they
// are one table set with a blank line or two between groups of rows:
// nothing between them (no word, nor two rules apart: one's bottom rule
// and the other's top rule), a gap under three and a half lines, most of their
// widths shared, and the same columns (as many, each overlapping its
// counterpart). The joined lines must still read as a table.
func (d *Detector) joinSplit(fs []textFound, all []*word, hs, vs []rule, size, gap float64) []textFound {
	for i := 0; i+1 < len(fs); i++ {
		a := fs[i]
		j := -1
		for k := i + 1; k < len(fs); k++ {
			if b := fs[k].t.BBox; b.Y0 > a.t.BBox.Y1 && overlapX(a.t.BBox, b) > 0.8*min(a.t.BBox.X1-a.t.BBox.X0, b.X1-b.X0) {
				j = k
				break
			}
		}
		if j < 0 {
			continue
		}
		b := fs[j]
		ab, bb := a.t.BBox, b.t.BBox
		if bb.Y0-ab.Y1 > 3.5*size || wordsBetween(all, ab, bb) ||
			rulesBetween(hs, ab.Y1, bb.Y0, max(ab.X0, bb.X0), min(ab.X1, bb.X1)) >= 2 {
			continue // (two rules apart between: each table's own, rulesApart)
		}
		ca, cb := columns(a.lines, gap), columns(b.lines, gap)
		if len(ca) < 2 || len(ca) != len(cb) {
			continue
		}
		same := true
		for k := range ca {
			same = same && min(ca[k].b, cb[k].b) > max(ca[k].a, cb[k].a)
		}
		if !same {
			continue
		}
		lines := append(append([]*textLine(nil), a.lines...), b.lines...)
		t, ok := d.textTable(lines, hs, vs, a.says || b.says)
		if !ok {
			continue
		}
		fs[i] = textFound{t, lines, a.says || b.says}
		fs = append(fs[:j], fs[j+1:]...)
		i-- // the joined table may join the next one too
	}
	return fs
}

func overlapX(a, b document.BBox) float64 {
	return min(a.X1, b.X1) - max(a.X0, b.X0)
}

// wordsBetween: some word lies between the two boxes (below a, above b,
// within their shared width): a caption, a title or a note.
func wordsBetween(all []*word, a, b document.BBox) bool {
	x0, x1 := max(a.X0, b.X0), min(a.X1, b.X1)
	for _, w := range all {
		if cy := w.cy(); cy > a.Y1 && cy < b.Y0 && w.bb.X1 > x0 && w.bb.X0 < x1 {
			return true
		}
	}
	return false
}
