package table

import (
	"math"

	"github.com/docket-dev/docket/loader/internal/document"
)

// headerBand: grid g is one box with no rule inside (a header row's
// background), at most four lines of text tall, over three or more
// lines of free words starting within two lines under it and inside its
// width, two of them with several phrases, and nothing beside: the
// header of an unruled table, not a table of its own. Read alone, the
// header is one table and the body another.
func headerBand(g grid, ws []*word) bool {
	if len(g.hs) != 2 || len(g.vs) != 2 {
		return false
	}
	box := g.bb
	in := freeWords(ws, &box)
	if len(in) == 0 {
		return false
	}
	size := medianSize(in)
	if box.Y1-box.Y0 > 7*size || len(lineUp(in)) > 4 {
		return false
	}
	var below []*word
	for _, w := range ws {
		if w.used || w.cy() < box.Y0 || w.bb.Y0 > box.Y1+8*size {
			continue
		}
		if w.bb.X1 < box.X0-size || w.bb.X0 > box.X1+size {
			return false // text beside: another table or a paragraph
		}
		if w.cy() > box.Y1 && w.bb.X0 >= box.X0-size && w.bb.X1 <= box.X1+size {
			below = append(below, w)
		}
	}
	lines := lineUp(below)
	if len(lines) < 3 || lines[0].bb.Y0-box.Y1 > 2*size {
		return false
	}
	gap := math.Max(5, 0.9*size)
	multi := 0
	for _, l := range lines {
		if l.nSegments(gap) >= 2 {
			multi++
		}
	}
	return multi >= 2
}

// offBoxes are the rules less those on the edges of the boxes bs.
func offBoxes(rs []rule, bs []document.BBox, horizontal bool) []rule {
	if len(bs) == 0 {
		return rs
	}
	var out []rule
	for _, r := range rs {
		edge := false
		for _, b := range bs {
			p0, p1, a0, a1 := b.Y0, b.Y1, b.X0, b.X1
			if !horizontal {
				p0, p1, a0, a1 = b.X0, b.X1, b.Y0, b.Y1
			}
			edge = edge || (math.Abs(r.pos-p0) <= snapTol || math.Abs(r.pos-p1) <= snapTol) && r.a >= a0-joinTol && r.b <= a1+joinTol
		}
		if !edge {
			out = append(out, r)
		}
	}
	return out
}

// bodies runs the unruled detector with the header bands' edges left out
// of the rules, so that each band's text heads the body under it. When a
// band heads no table that way, the page is read as before: each band a
// ruled table of its own, the rules as they are.
func (d *Detector) bodies(ws []*word, hs, vs []rule, bands []grid) []document.Table {
	if len(bands) == 0 {
		return d.unruled(ws, hs, vs)
	}
	used := make([]bool, len(ws))
	for i, w := range ws {
		used[i] = w.used
	}
	boxes := make([]document.BBox, len(bands))
	for i, g := range bands {
		boxes[i] = g.bb
	}
	ts := d.unruled(ws, offBoxes(hs, boxes, true), offBoxes(vs, boxes, false))
	if headsAll(ts, boxes) {
		return ts
	}
	for i, w := range ws {
		w.used = used[i]
	}
	var out []document.Table
	for _, g := range bands {
		if t, ok := d.ruled(g, ws, hs, vs); ok {
			out = append(out, t)
		}
	}
	return append(out, d.unruled(ws, hs, vs)...)
}

// headsAll: each box's centre lies in one of the tables.
func headsAll(ts []document.Table, boxes []document.BBox) bool {
	for _, b := range boxes {
		cx, cy := (b.X0+b.X1)/2, (b.Y0+b.Y1)/2
		in := false
		for _, t := range ts {
			in = in || cx > t.BBox.X0 && cx < t.BBox.X1 && cy > t.BBox.Y0 && cy < t.BBox.Y1
		}
		if !in {
			return false
		}
	}
	return true
}
