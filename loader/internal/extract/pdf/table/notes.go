package table

import (
	"math"
	"strings"
)

// trimNotes drops the rows at the bottom of a table that are running
// text: one filled cell holding a sentence or more (footnotes and source
// notes set inside a table's frame, a paragraph under an unruled table).
// A table of two columns keeps them (a row there often is one long cell).
// The table's box is cut above them (finish), so their text stays on the
// page as paragraphs.
func trimNotes(l layout) layout {
	if len(l.rows) == 0 || len(l.rows[0]) < 3 {
		return l
	}
	n := len(l.rows)
	for n > 1 {
		filled, text := 0, ""
		for _, c := range l.rows[n-1] {
			if c != "" {
				filled++
				text = c
			}
		}
		if filled != 1 || !proseText(text) {
			break
		}
		n--
	}
	if n == len(l.rows) {
		return l
	}
	if len(l.bottom) != len(l.rows) {
		return l // no row extents: keep the notes rather than lose them
	}
	if math.IsInf(l.bottom[n-1], 0) {
		return l
	}
	out := layout{rows: l.rows[:n], bottom: l.bottom[:n], cut: l.bottom[n-1] + 1}
	for _, s := range l.spans {
		if s.Row >= n {
			continue
		}
		if s.Row+s.Rows > n {
			s.Rows = n - s.Row
		}
		if s.Rows > 1 || s.Cols > 1 {
			out.spans = append(out.spans, s)
		}
	}
	return out
}

// proseText: eight words or more, three in four of them made of letters
// (punctuation around them allowed), and 50 bytes at least.
func proseText(s string) bool {
	ws := strings.Fields(s)
	if len(ws) < 8 || len(s) < 50 {
		return false
	}
	n := 0
	for _, w := range ws {
		if isWordOfLetters(w) {
			n++
		}
	}
	return 4*n >= 3*len(ws)
}
