package table

import (
	"math"
	"sort"
)

// markColumnStarts marks the words that start a column although the gap
// before them is only a word space: a browser's unstyled table sets its
// cells 2px of border spacing and 1px of padding apart (3pt in print), as
// far as a space, so "NASDAQ Composite 2,456" reads as one phrase. A
// column shows in its alignment instead. From a word standing a cell's
// padding or more after the word before it (the grid's gap), or 0.45 of
// a size, wider than any word space (noWordSpace: an unstyled table's
// "Braemar" 5.3pt before "62" at 10pt, where no row keeps a padding's
// gap before that column), the lines
// above and below (as close as a table's rows, 1.8 lines apart at most)
// with a word starting at the same x (within 0.3pt: a column's cells
// start at one x, a centred head or a paragraph's word only near it) are
// its rows, as long as no word of a line runs across that x and the word
// is no word of running text (startAt). Three such lines or more, two of
// them clear of the word before (a padding's gap, or half as wide again
// as the line's word space: wideSpace; a clear gutter in more than one
// row, not a head over a column of values with units), their words not
// all of one width (ragged), make a column: its words are marked edge,
// and columns takes a gutter narrower than a padding ending there. When
// one of them at least stands less than the padding after the word
// before it (a gap no other rule takes for a column's), they are marked
// col too: each starts a phrase whatever the gap before it (see
// segments). A paragraph's lines have a word across almost any x, and
// their words rarely start at one x on three lines in a row. Fixed-pitch
// text (code, terminal output) has every character on a grid, so its
// words line up whatever they are: it makes no columns here, nor does a
// word a space or so after a number (afterNumber: its unit, or a
// numbered entry's text).
func markColumnStarts(lines []*textLine, size float64) {
	if markColumnsOnce(lines, size, nil) {
		// a word after a gap a column runs through starts a phrase now:
		// its line may be no paragraph's any more, and the columns
		// tried before it was may take it in (a row of names set a
		// space or so apart under centred heads)
		markColumnsOnce(lines, size, map[*word]bool{})
	}
}

// markColumnsOnce tries a column from each word of lines that may start
// one (markColumnStarts), skipping the words of columns it found: words
// already marked edge the first time, those in again the second (again
// non-nil). It says whether a word after a gap across a column's x
// started a phrase it had not (gapOver).
func markColumnsOnce(lines []*textLine, size float64, again map[*word]bool) bool {
	pad := gridGap(size)
	var at []member     // the aligned words of the column tried
	var over []overWord // words of its lines with nothing at x, after a gap across x (gapOver)
	changed := false
	for i, l := range lines {
		for k := 1; k < len(l.ws); k++ {
			w := l.ws[k]
			if again == nil && w.edge || again[w] || w.mono || w.bb.X0-l.ws[k-1].bb.X1 < pad && !noWordSpace(l, w.bb.X0-l.ws[k-1].bb.X1) || afterNumber(l, k, size) || proseWords(l.ws[:k]) && proseWords(l.ws[k:]) {
				continue
			}
			x := w.bb.X0
			at = append(at[:0], member{w, w.bb.X0-l.ws[k-1].bb.X1 < pad, true, i})
			over = over[:0]
			for _, dir := range []int{-1, 1} {
				missed := 0 // lines in a row with nothing at x
				heads := len(over)
				for j := i + dir; j >= 0 && j < len(lines); j += dir {
					if stepApart(lines, j, dir) {
						break
					}
					s, gap, across := startAt(lines, j, x, pad)
					if across {
						break
					}
					if s == nil {
						if missed++; missed > 2 {
							break
						}
						if o := gapOver(lines[j], x); o != nil {
							over = append(over, overWord{o, math.Abs(lines[j].bb.Y0 - lines[j-dir].bb.Y0)})
						}
						continue
					}
					missed = 0
					at = append(at, member{s, gap < pad, gap >= pad || wideSpace(lines[j], gap) || noWordSpace(lines[j], gap) || underSpace(lines[j], gap), j})
					heads = len(over)
				}
				if dir > 0 {
					// under the column's last word: the table's end or
					// the text under it, no cells of the column's
					over = over[:heads]
				}
			}
			if !markColumn(at, over, &changed) || again == nil {
				continue
			}
			for _, m := range at {
				again[m.w] = true
			}
		}
	}
	return changed
}

// gapOver is the word of l right after a gap between two of its words
// that x falls in, when that gap is narrower than a cell's padding (the
// grid reads a wider one as a column's gap anyway), clear of the word
// before (0.15 of a size, as startAt), wider than l's word space
// (wideSpace; or a number after a number, afterFigure) and no number's
// unit (afterNumber): a cell of the column
// starting at x set off its start, its head row's cells centred and a
// word space or so apart across x ("Daruvala  Gasly" over "74%  23%"),
// or nil. A paragraph's line has no such gap.
func gapOver(l *textLine, x float64) *word {
	k := sort.Search(len(l.ws), func(k int) bool { return l.ws[k].bb.X0 > x+0.3 })
	if k == 0 || k == len(l.ws) {
		return nil
	}
	gap := l.ws[k].bb.X0 - l.ws[k-1].bb.X1
	if gap >= gridGap(l.size) || l.ws[k-1].bb.X1 > x-0.15*l.size || !wideSpace(l, gap) && !afterFigure(l, l.ws[k], gap) || afterNumber(l, k, l.size) || proseWords(l.ws[:k]) && proseWords(l.ws[k:]) {
		return nil
	}
	return l.ws[k]
}

// overWord is a word gapOver gave and the step from the line before it
// in the walk (the next line towards the word the column was tried from).
type overWord struct {
	w    *word
	link float64
}

// member is a word of a column markColumnStarts tries, whether it
// stands less than a padding after the word before it, and its line.
type member struct {
	w            *word
	tight, clear bool
	line         int
}

// markColumn marks the words of a column markColumnStarts found: three
// or more, two of them clear of the word before, not all of one width.
func markColumn(at []member, over []overWord, changed *bool) bool {
	clear, tight := 0, 0
	for _, m := range at {
		if m.tight {
			tight++
		}
		if m.clear {
			clear++
		}
	}
	if len(at) < 3 || clear < 2 || !ragged(at) && (tight == 0 || !otherFigures(at)) {
		return false
	}
	for _, m := range at {
		m.w.edge = true
		m.w.col = m.w.col || tight > 0
	}
	if len(over) == 0 {
		return true
	}
	// the column's right end (its widest word's) and its rows' pitch
	// (the least step between its words' lines)
	right, pitch := math.Inf(-1), math.Inf(1)
	for i, m := range at {
		right = max(right, m.w.bb.X1)
		for _, n := range at[:i] {
			if d := math.Abs(m.w.bb.Y0 - n.w.bb.Y0); d > 0.5*m.w.size {
				pitch = min(pitch, d)
			}
		}
	}
	for _, o := range over {
		// a cell of the column: starting inside it, its line as close to
		// the next as the column's rows (not a paragraph's line a margin
		// above the table)
		if o.w.bb.X0 < right && o.link <= 1.25*pitch {
			*changed = *changed || !o.w.col
			o.w.col = true
		}
	}
	return true
}

// wideSpace: gap is half as wide again as l's narrowest gap between
// words (its word space) or wider: no word space, though narrower than a
// padding ("GER  1189" beside "Anze 656" in a ranking).
func wideSpace(l *textLine, gap float64) bool {
	ws := math.Inf(1)
	for k := 1; k < len(l.ws); k++ {
		if g := l.ws[k].bb.X0 - l.ws[k-1].bb.X1; g > 0 {
			ws = min(ws, g)
		}
	}
	return gap >= 1.5*ws
}

// noWordSpace: gap is 0.45 of l's size or wider, wider than any word
// space (a quarter to a third of a size in a text face), though narrower
// than a padding: a line whose every gap is a column's ("AUT  3577", one
// word to a cell) has no word space of its own for wideSpace to measure
// it by.
func noWordSpace(l *textLine, gap float64) bool {
	return gap >= 0.45*l.size
}

// underSpace: gap, between two words a space or the line's break split,
// is narrower than any word space (0.17 of the size: a Latin font's
// space is 0.25 to 0.33 of it, and justification shrinks it to 0.19 at
// the least), though not nil: two cells set against each other, a
// browser's unstyled table with collapsed borders leaving 1px of padding
// each side (1.5pt in print, 0.15 of a 10pt size).
func underSpace(l *textLine, gap float64) bool {
	return gap > 0.05*l.size && gap < 0.17*l.size
}

// ragged: the words differ in width by 1pt or more (two of them at
// least): they start at one x because their column is set flush left,
// not because they are the same text centred or set flush right ("-"
// in each row of a column of times).
func ragged(at []member) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, m := range at {
		w := m.w.bb.X1 - m.w.bb.X0
		lo, hi = min(lo, w), max(hi, w)
	}
	return hi-lo >= 1
}

// otherFigures: the words are numbers, not all the same, on lines in a
// row (no line between them without a word at their x): figures of as
// many digits are as wide, so a column of them set flush left starts at
// one x in every row ("29,9", "17,6", "58,9"), where ragged finds no
// column; a column set flush right or centred has its narrower or wider
// figures elsewhere, and the lines between do not line up.
func otherFigures(at []member) bool {
	lo, hi, other := at[0].line, at[0].line, false
	for _, m := range at {
		if !numeric(m.w.text) {
			return false
		}
		lo, hi = min(lo, m.line), max(hi, m.line)
		other = other || m.w.text != at[0].w.text
	}
	return other && hi-lo+1 == len(at)
}

// startAt is the word of lines[j] starting at x (within 0.3pt), if
// any, and the gap before it (its start, for a line's first word);
// across says a word of the line runs across x or ends less than a space
// before it (0.15 of a size: a gutter is as wide as a space at least),
// or the word at x, a space or so after the word before it (less than
// pad), is a word of running text: prose on both sides of it, or its
// line a paragraph's (running) or one going on from a paragraph's line
// at the leading, above or below (a paragraph's short last line).
func startAt(lines []*textLine, j int, x, pad float64) (w *word, gap float64, across bool) {
	l := lines[j]
	k := sort.Search(len(l.ws), func(k int) bool { return l.ws[k].bb.X0 >= x-0.3 })
	if k == len(l.ws) || l.ws[k].bb.X0 > x+0.3 {
		return nil, 0, k > 0 && l.ws[k-1].bb.X1 > x-0.15*l.size
	}
	if l.ws[k].mono {
		return nil, 0, true // fixed-pitch text lines up whatever it is
	}
	if k == 0 {
		return l.ws[0], math.Inf(1), false
	}
	gap = l.ws[k].bb.X0 - l.ws[k-1].bb.X1
	if proseWords(l.ws[:k]) && proseWords(l.ws[k:]) {
		return nil, 0, true
	}
	if afterNumber(l, k, l.size) {
		return nil, 0, false // a number's unit, or an entry after its number
	}
	if gap < pad {
		if running(l, pad) {
			return nil, 0, true
		}
		for _, n := range []int{j - 1, j + 1} {
			// (a gap narrower than any word space is no word space of
			// a paragraph's short line: underSpace)
			if n >= 0 && n < len(lines) && running(lines[n], pad) && !underSpace(l, gap) &&
				max(lines[n].bb.Y0-l.bb.Y1, l.bb.Y0-lines[n].bb.Y1) <= 0.5*l.size {
				return nil, 0, true
			}
		}
	}
	return l.ws[k], gap, false
}

// running: l is a paragraph's line, prose longer than a head
// (paragraphLine) with no gap as wide as a cell's padding (pad): a row of
// heads or cells of words has its columns' gaps.
func running(l *textLine, pad float64) bool {
	return paragraphLine(l) && l.nSegments(pad) == 1
}

// afterNumber: l's word k, no number itself, stands less than the run's
// phrase gap after a number: it goes on from the number's cell (its
// unit, "613 mm") or is the entry a number heads (a table of contents'
// "150 Integrated Approach", a numbered list's item), no column's start.
// A number after a number starts one ("3,86  4,6": columns of figures
// set close), as does a sign a space before a number ("- 0,405  - 0,463").
func afterNumber(l *textLine, k int, size float64) bool {
	return l.ws[k].bb.X0-l.ws[k-1].bb.X1 < phraseGap(size) && numeric(l.ws[k-1].text) && !numeric(l.ws[k].text) && !signedNumber(l, k)
}

// signedNumber: l's word k is a lone sign and the word after it a number
// ("+ 0,115": a difference set with a space after its sign).
func signedNumber(l *textLine, k int) bool {
	switch l.ws[k].text {
	case "-", "+", "−", "–", "±":
		return k+1 < len(l.ws) && numeric(l.ws[k+1].text)
	}
	return false
}

// afterFigure: w, a number, stands more than a space (0.35 of a size)
// after a number on its line: a column's head right after another's
// ("2011  2013" over two columns of figures in an unstyled web table,
// centred and a little wider than the figures, where every small gap of
// the head line is as wide, so wideSpace finds none wider than its word
// space). A number's digit groups set a space apart ("1 234") stand
// closer.
func afterFigure(l *textLine, w *word, gap float64) bool {
	if gap < 0.35*w.size || !numeric(w.text) {
		return false
	}
	k := sort.Search(len(l.ws), func(k int) bool { return l.ws[k].bb.X0 >= w.bb.X0 })
	return k > 0 && k < len(l.ws) && l.ws[k] == w && numeric(l.ws[k-1].text)
}
