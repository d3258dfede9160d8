package table

import (
	"math"
	"regexp"
	"strings"
)

// tableCaptionRe: a line naming a table by its number ("Table 3.",
// "Table 2: ...", "Tab. 4", "Tabelle 1 –"): the document says a table
// follows.
var tableCaptionRe = regexp.MustCompile(`^(?:Table|TABLE|Tab\.|Tabelle|Tableau|Tabla)\s*[0-9IVX]+[A-Za-z]?(?:[.\-–][0-9]+)*\s*(?:[:.\-–—|)]|$)`)

// captioned: a table caption ("Table 1. ...") stands just above the
// candidate lines c, over them: the lines from the caption down to c are
// close together (a caption or head wrapped over a few lines) and inside
// c's width. The caption is layout evidence as a rule or a bold header
// is: a text-only table (labels and words, no number) under it is read
// as one, where without it its aligned phrases may be anything.
func captioned(lines []*textLine, c []*textLine, gap float64) bool {
	return captionedBy(tableCaptionRe, lines, c, gap)
}

// figureCaptionRe: a line naming a figure by its number ("Figure 2.",
// "Fig. 3:"): what follows is a figure's, whatever its text's layout.
var figureCaptionRe = regexp.MustCompile(`^(?:Figure|FIGURE|Fig\.|Abbildung|Chart|Exhibit)\s*[0-9IVX]+[A-Za-z]?(?:[.\-–][0-9]+)*\s*(?:[:.\-–—|)]|$)`)

// captionedBy is captioned for a caption re matches.
func captionedBy(re *regexp.Regexp, lines []*textLine, c []*textLine, gap float64) bool {
	i := -1
	for k, l := range lines {
		if l == c[0] {
			i = k
			break
		}
	}
	if i < 0 {
		return false
	}
	cb := boxOf(c)
	size := c[0].size
	below := c[0].bb.Y0
	for k := i - 1; k >= 0 && i-k <= 4; k-- {
		l := lines[k]
		// the phrase of l over c (a caption beside c's is another's); a
		// line of several phrases over c is a row, not a caption
		var over []*word
		for _, s := range l.segments(gap) {
			b := boxOf(s)
			if min(b.X1, cb.X1)-max(b.X0, cb.X0) > 0 {
				if over != nil {
					return false
				}
				over = s
			}
		}
		if over == nil {
			continue // a line beside c only
		}
		ob := boxOf(over)
		if below-ob.Y1 > 1.5*size || ob.X0 < cb.X0-size || ob.X0 > cb.X0+0.5*(cb.X1-cb.X0) {
			return false
		}
		parts := make([]string, len(over))
		for n, w := range over {
			parts[n] = w.text
		}
		if re.MatchString(strings.Join(parts, " ")) {
			return true
		}
		below = ob.Y0
	}
	return false
}

// captionUnder: a table caption ("Table 2 – ...", a browser's
// caption-side: bottom) stands right under the lines c: less than one and
// a half sizes under them, starting at most a size left of c and no
// farther right than c's middle, or centred under c.
func captionUnder(c []*textLine, next *textLine, gap float64) bool {
	if next == nil || len(c) == 0 {
		return false
	}
	cb, size := boxOf(c), c[len(c)-1].size
	segs := next.segments(gap)
	if len(segs) == 0 {
		return false
	}
	sb := boxOf(segs[0])
	if sb.Y0-cb.Y1 > 1.5*size || sb.Y0 < cb.Y1-0.3*size {
		return false
	}
	left := sb.X0 >= cb.X0-size && sb.X0 <= cb.X0+0.5*(cb.X1-cb.X0)
	centred := math.Abs((sb.X0+sb.X1)/2-(cb.X0+cb.X1)/2) <= size
	return (left || centred) && tableCaptionRe.MatchString(cellText(segs[0]))
}
