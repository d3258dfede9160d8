package table

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// A row whose other cells are blank (one phrase: "76,390" under "2018
// 4,341") does not break the chain of short lines with phrases a padding
// apart that line up (multiPhrase): the lines on either side of it line
// up with each other. Tune pages: surround kd-5126 (years and amounts
// under a caption) and hard kd-3038 ("Score Share" over score ranges and
// shares, one range blank) were not found on main (checked).
func TestBlankCellRowKeepsTheColumnsLinedUp(t *testing.T) {
	for _, c := range []struct {
		file string
		want [][]string
	}{
		{"surround-5126.pdf", [][]string{{"2018", "4,341"}, {"", "76,390"}, {"2019", "48,972"}, {"2015", "44,747"}}},
		{"hard2-3038.pdf", [][]string{{"Score", "Share"}, {"51–55", "10.2%"}, {"", "17.5%"}, {"63–67", "25.9%"}}},
	} {
		ts := detectFile(t, filepath.Join("testdata", c.file))
		if !hasTable(ts, c.want) {
			t.Errorf("%s: want a table %q: %s", c.file, c.want, dump(ts))
		}
	}
}

// The line between the two lined-up lines must be short: with a
// paragraph's line between them, two short lines of two phrases a padding
// apart stay text (multiPhrase false for both).
func TestParagraphLineBetweenIsNoBlankRow(t *testing.T) {
	mk := func(y float64, s string) *textLine {
		var ws []*word
		x := 72.0
		for _, f := range strings.Fields(s) {
			w := helvWidth(f)
			ws = append(ws, &word{bb: document.BBox{X0: x, Y0: y, X1: x + w, Y1: y + 10}, text: f, size: 10})
			x += w + 2.5
		}
		return &textLine{ws: ws, bb: boxOf(ws), size: 10}
	}
	wide := mk(100, "and the members of the board have read the figures of the last year with care")
	a, b := mk(113, "Total"), mk(139, "Total")
	// a second phrase a padding (6pt) right of "Total", right-aligned at the same x
	for _, l := range []*textLine{a, b} {
		x := l.bb.X1 + 6
		l.ws = append(l.ws, &word{bb: document.BBox{X0: x, Y0: l.bb.Y0, X1: x + 20, Y1: l.bb.Y1}, text: "12.5", size: 10})
		l.bb = boxOf(l.ws)
	}
	lines := []*textLine{wide, a, mk(126, "and then they went on with the meeting of the day as it was planned before"), b}
	multi := multiPhrase(lines, 10, phraseGap(10))
	if multi[1] || multi[3] {
		t.Errorf("lines around a paragraph line counted as table lines: %v", multi)
	}
}
