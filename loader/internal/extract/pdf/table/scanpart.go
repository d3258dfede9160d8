package table

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
)

// scanPart appends to found the tables of a part of a run (lines[first:]
// on) read with the lines from top above it: the lines beside a paragraph
// left out, split where two tables stand side by side. textTable needs a
// column with two numeric or placeholder cells, each made of at least one
// such word, unless the layout itself says table (rules above and below,
// or a bold header over aligned columns): without either the grid is not
// worth building.
func (d *Detector) scanPart(found []textFound, lines []*textLine, top, first int, part []*textLine, gap float64, hs, vs []rule) []textFound {
	cand := within(besideParagraph(lines, top, first+len(part), gap), gap, hs)
	sides, level := splitSides(cand, gap)
	for _, c := range sides {
		layoutSays := level || framed(c, hs) || centredRows(c) || boldHeaded(c, gap) || boldHeadsOver(c, gap) || captioned(lines, c, gap) ||
			len(sides) == 1 && (textColumns(c, gap) || tightText(c, gap) && textColumns(c, min(gap, gridGap(medianLineSize(c))))) &&
				!captionedBy(figureCaptionRe, lines, c, gap)
		if !layoutSays && !twoNumeric(c) {
			continue
		}
		if t, ok := d.textTable(c, hs, vs, layoutSays); ok {
			found = append(found, textFound{t, c, layoutSays})
		}
	}
	return found
}

// headedPart is scanPart with the lines from top as the part's header,
// when every table read so has as many columns and body rows as the part
// read alone (heads that merge columns or make the body's rows merge are
// read wrong); otherwise the part read alone.
func (d *Detector) headedPart(found []textFound, lines []*textLine, top, first int, part []*textLine, gap float64, hs, vs []rule) []textFound {
	var ws []*word
	for _, l := range lines[top : first+len(part)] {
		ws = append(ws, l.ws...)
	}
	used := make([]bool, len(ws))
	for i, w := range ws {
		used[i] = w.used
	}
	reset := func() {
		for i, w := range ws {
			w.used = used[i]
		}
	}
	headed := d.scanPart(nil, lines, top, first, part, gap, hs, vs)
	reset()
	alone := d.scanPart(nil, lines, first, first, part, gap, hs, vs)
	ok := len(headed) > 0 && len(headed) == len(alone)
	for k := 0; ok && k < len(headed); k++ {
		ok = nCols(headed[k].t) == nCols(alone[k].t) && len(headed[k].t.Rows) >= len(alone[k].t.Rows)
	}
	if !ok {
		return append(found, alone...)
	}
	reset()
	for _, f := range headed {
		for _, l := range f.lines {
			for _, w := range l.ws {
				w.used = true // as textTable marks them
			}
		}
	}
	return append(found, headed...)
}

func nCols(t document.Table) int {
	if len(t.Header) > 0 {
		return len(t.Header)
	}
	if len(t.Rows) > 0 {
		return len(t.Rows[0])
	}
	return 0
}

// twoNumeric: the lines hold at least two words that contain a digit or
// are a placeholder ("-", "n/a"): a numeric cell contains a digit, and a
// placeholder cell is a single word.
func twoNumeric(lines []*textLine) bool {
	n := 0
	for _, l := range lines {
		for _, w := range l.ws {
			if strings.ContainsAny(w.text, "0123456789") || placeholder(w.text) {
				if n++; n >= 2 {
					return true
				}
			}
		}
	}
	return false
}

// textTable checks the evidence for an unruled table over some lines.
func (d *Detector) textTable(lines []*textLine, hs, vs []rule, layoutSays bool) (document.Table, bool) {
	var ws []*word
	for _, l := range lines {
		ws = append(ws, l.ws...)
	}
	box := boxOf(lines)
	box.X0 -= 1
	box.Y0 -= 1
	box.X1 += 1
	box.Y1 += 1
	// rows split at the page's row pitch (rowPitch) refine a table's
	// rows; they are no evidence of a table (more rows): the evidence is
	// read from the grid built without them (the lead hidden), the table
	// from one with them, built again only when the lead would have
	// changed a test's answer (most grids: it changed none, and the
	// grid is the same)
	hideLead(ws)
	l := trimNotes(prune(buildGrid(box, ws, hs, vs)))
	asked := leadShown(ws)
	if !textEvidence(l.rows, lines, layoutSays) {
		return document.Table{}, false
	}
	if asked {
		l = trimNotes(prune(buildGrid(box, ws, hs, vs)))
	}
	l = centredGroups(withoutUnderlines(l, box, ws, hs, vs))
	for _, w := range ws {
		w.used = true
	}
	return finish(l, boxOf(lines)), true
}

// textEvidence: the rows of a grid over lines with no rules make a table:
// three rows at least, with two filled cells or more, not running text,
// and a column of numbers, ranges, dates or times (or the layout says
// table, or the rows share numbers).
func textEvidence(rows [][]string, lines []*textLine, layoutSays bool) bool {
	if !plausible(rows, 3) {
		return false
	}
	multiRows, cells, chars := fillStats(rows)
	if multiRows < 3 || chars > 40*cells && !oneTextColumn(rows) && !centredRows(lines) {
		return false
	}
	// a column of numbers after the first (numbers first are list
	// items or years as labels), or of ranges of them (a record's
	// positions, "17-22"), or of dates or times anywhere (a schedule's
	// dates come first)
	numCols := 0
	for j := 0; j < len(rows[0]); j++ {
		num, n := 0, 0
		for _, r := range rows {
			if r[j] == "" {
				continue
			}
			n++
			if j > 0 && (numeric(r[j]) || placeholder(r[j]) || numRange(r[j]) || codeCell(r[j])) || dateTime(r[j]) {
				num++
			}
		}
		if num >= 2 && float64(num) >= 0.6*float64(n) {
			numCols++
		}
	}
	return numCols > 0 || layoutSays || sharedNumbers(rows)
}

// within drops the lines of one phrase that lie wholly beside the extent
// of the lines of several phrases, a gap or more away, under a rule that
// ends before that extent (within three lines): a note under a ruled
// table beside, falling between this one's rows, not a cell of it (a
// group label in a stub column left of the rows stays).
func within(ls []*textLine, gap float64, hs []rule) []*textLine {
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, l := range ls {
		if l.nSegments(gap) >= 2 {
			x0, x1 = min(x0, l.bb.X0), max(x1, l.bb.X1)
		}
	}
	if x0 > x1 {
		return ls
	}
	underRule := func(l *textLine) bool {
		for _, h := range hs {
			if h.pos < l.bb.Y0 && l.bb.Y0-h.pos <= 3*l.size && h.a <= l.bb.X0+l.size && h.b >= l.bb.X0 && (h.b < x0 || h.a > x1) {
				return true
			}
		}
		return false
	}
	out := ls[:0:0]
	for _, l := range ls {
		if l.nSegments(gap) == 1 && (l.bb.X1 < x0-gap || l.bb.X0 > x1+gap) && underRule(l) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// tightText: the lines may be a text table set tight, its columns a
// cell's padding apart (gridGap), closer than the phrase gap: fewer than
// three of them have two phrases or more at gap (multiPhrase found them
// a padding apart), and they are not set in a fixed-pitch font, whose
// word space is as wide as a padding (a code listing: fixedPitch).
func tightText(lines []*textLine, gap float64) bool {
	n := 0
	for _, l := range lines {
		if l.nSegments(gap) >= 2 {
			n++
		}
	}
	return n < 3 && !fixedPitch(lines)
}

// fixedPitch: the lines' words are set in a fixed-pitch font, by the
// font's flag or by their advances: four words of three characters or
// more, each as wide a character as the others within 3 % (a subset
// font whose flag says proportional; in a proportional font "Vienna"
// and "Oslo" differ by a quarter).
func fixedPitch(lines []*textLine) bool {
	lo, hi, n := math.Inf(1), math.Inf(-1), 0
	for _, l := range lines {
		for _, w := range l.ws {
			if w.mono {
				return true
			}
			if r := utf8.RuneCountInString(w.text); r >= 3 {
				a := (w.bb.X1 - w.bb.X0) / float64(r)
				lo, hi, n = min(lo, a), max(hi, a), n+1
			}
		}
	}
	return n >= 4 && hi <= 1.03*lo
}

// codeCell: a cell of one word of capitals and digits (and "-", "/",
// "."), a digit and a capital at least: a room, a part number, a reference ("E-210",
// "DB-1890"). A column of them after the first is a table's as a
// column of numbers is: running text does not line codes up.
func codeCell(s string) bool {
	if !strings.ContainsAny(s, "0123456789") || strings.IndexFunc(s, unicode.IsUpper) < 0 {
		return false
	}
	for _, r := range s {
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) && r != '-' && r != '/' && r != '.' {
			return false // a word, a bracketed reference ("[VL15]"), two words
		}
	}
	return true
}
