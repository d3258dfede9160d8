package table

// textBox: the grid is a frame and nothing inside it (no rule within
// its edges) around a line of running text (one phrase of prose longer
// than a head, paragraphLine) that starts at the frame's left and runs
// over most of its width: a text box (a sidebar, "Box 2", a note set in
// a frame) that may hold a table among its text, not a table drawn with
// rules. Read as a ruled table, its text became the table's first row
// and the frame its box. Its words are left to the unruled detector,
// which finds a table inside it as in running text.
func textBox(g grid, in []*word) bool {
	for _, h := range g.hs {
		if h.pos > g.bb.Y0+2 && h.pos < g.bb.Y1-2 {
			return false
		}
	}
	if innerVertical(g) {
		return false
	}
	w := g.bb.X1 - g.bb.X0
	gap := phraseGap(medianSize(in))
	for _, l := range lineUp(in) {
		if l.bb.X0-g.bb.X0 < 0.15*w && l.bb.X1-l.bb.X0 > 0.6*w && l.nSegments(gap) == 1 && paragraphLine(l) {
			return true
		}
	}
	return false
}

// innerVertical: a vertical rule of g runs inside its edges.
func innerVertical(g grid) bool {
	for _, v := range g.vs {
		if v.pos > g.bb.X0+2 && v.pos < g.bb.X1-2 {
			return true
		}
	}
	return false
}

// listing: the grid is a box with no rule between columns around text
// set in a fixed-pitch font, three words in four of it or more, whose
// lines are mostly one phrase (words a space apart, no gap of a size or
// more: a fixed-pitch space is 0.6 of one): a code listing or a
// terminal's output (a shaded band a line, line numbers in the margin),
// not a table's cells. Read as a ruled table, a comment set apart after
// a line of code became a column of its own (layout-parser's paper:
// "image = cv2.imread(...) | # load | images"). Its words are nobody's
// table. A data table in a typewriter font has its columns spaces
// apart in most lines (review32: "North   1,204   1,318   +9.5%") and
// stays a table.
func listing(g grid, in []*word) bool {
	if innerVertical(g) {
		return false
	}
	mono := 0
	for _, w := range in {
		if w.mono {
			mono++
		}
	}
	if 4*mono < 3*len(in) {
		return false
	}
	size := medianSize(in)
	lines := lineUp(in)
	multi := 0
	for _, l := range lines {
		if l.nSegments(size) >= 2 {
			multi++
		}
	}
	return 2*multi < len(lines)
}

// crossedOnly: a word runs across every vertical rule of g (a rule
// behind the text: a decoration's edge, a bar drawn down to the page's
// foot), so no vertical rule parts two columns. A GAO report's back page
// and footnotes were read as a "grid" of such bars and a full-width rule
// across them: two text columns of prose cut into cells. Its words stay
// free for the other detectors.
func crossedOnly(g grid, in []*word) bool {
	if len(g.vs) == 0 {
		return false
	}
	for _, v := range g.vs {
		crossed := false
		for _, w := range in {
			if cy := w.cy(); w.bb.X0 < v.pos-1 && w.bb.X1 > v.pos+1 && cy >= v.a && cy <= v.b {
				crossed = true
				break
			}
		}
		if !crossed {
			return false
		}
	}
	return true
}
