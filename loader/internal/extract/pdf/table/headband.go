package table

import (
	"math"

	"github.com/docket-dev/docket/loader/internal/document"
)

// headBand is a header band (see headerBand); beside: a block of text (a
// table or a paragraph) stands beside it and its body, a gutter apart.
type headBand struct {
	g      grid
	beside bool
}

// headerBand: grid g is one box with no rule inside (a header row's
// background), at most four lines of text tall, over three or more
// lines of free words starting within two lines under it and inside its
// width, two of them with several phrases, and nothing beside but
// across a gutter (sideGutter) with row labels under the band (a table
// of its own beside another table or a paragraph): the header of an
// unruled table, not a table of its own. Read alone, the header is one
// table and the body another.
func headerBand(g grid, ws []*word) (ok, beside bool) {
	if len(g.hs) != 2 || len(g.vs) != 2 {
		return false, false
	}
	box := g.bb
	in := freeWords(ws, &box)
	if len(in) == 0 {
		return false, false
	}
	size := medianSize(in)
	if box.Y1-box.Y0 > 7*size || len(lineUp(in)) > 4 {
		return false, false
	}
	gap := phraseGap(size)
	var below []*word
	for _, w := range ws {
		if w.used || w.cy() < box.Y0 || w.bb.Y0 > box.Y1+8*size {
			continue
		}
		if w.bb.X1 < box.X0-size || w.bb.X0 > box.X1+size {
			if w.bb.X1 > box.X0-sideGutter*gap && w.bb.X0 < box.X1+sideGutter*gap {
				return false, false // text beside: the band's table goes on there
			}
			beside = true // another table or a paragraph, a gutter away
			continue
		}
		if w.cy() > box.Y1 && w.bb.X0 >= box.X0-size && w.bb.X1 <= box.X1+size {
			below = append(below, w)
		}
	}
	lines := lineUp(below)
	if len(lines) < 3 || lines[0].bb.Y0-box.Y1 > 2*size {
		return false, false
	}
	multi, labels := 0, 0
	for _, l := range lines {
		if segs := l.segments(gap); len(segs) >= 2 {
			multi++
			if !numericCell(segs[0]) {
				labels++
			}
		}
	}
	if beside && 2*labels <= multi {
		return false, false // the band heads columns of a table whose labels stand left of it
	}
	return multi >= 2, beside
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
// of the rules, so that each band's text heads the body under it; a band
// with a block beside it is read first with its column alone (sideBody),
// then the rest of the page. When a band heads no table that way, the
// page is read as before: each band a ruled table of its own, the rules
// as they are.
func (d *Detector) bodies(ws []*word, hs, vs []rule, bands []headBand) []document.Table {
	if len(bands) == 0 {
		return d.unruled(ws, hs, vs)
	}
	used := make([]bool, len(ws))
	for i, w := range ws {
		used[i] = w.used
	}
	boxes := make([]document.BBox, len(bands))
	for i, b := range bands {
		boxes[i] = b.g.bb
	}
	hs1, vs1 := offBoxes(hs, boxes, true), offBoxes(vs, boxes, false)
	var ts []document.Table
	for _, b := range bands {
		if b.beside {
			ts = append(ts, d.sideBody(ws, b.g.bb, hs1, vs1)...)
		}
	}
	ts = append(ts, d.unruled(ws, hs1, vs1)...)
	if headsAll(ts, boxes) {
		return ts
	}
	for i, w := range ws {
		w.used = used[i]
	}
	var out []document.Table
	for _, b := range bands {
		if t, ok := d.ruled(b.g, ws, hs, vs); ok {
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
