package table

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestCellTextJoinsInOneBuffer: a cell of several lines of words is read
// in order, a sign touching its number and a CJK wrap joined without a
// space, the rest with one; and it costs lineUp's arrays and the string,
// not a string per part (the parts, their joins and strings.Join were
// ~14 % of a PDF worker's allocations).
func TestCellTextJoinsInOneBuffer(t *testing.T) {
	cell := func(lines ...[]string) []*word {
		var ws []*word
		for i, l := range lines {
			y, x := 100+12*float64(i), 72.0
			for _, w := range l {
				wd := 6 * float64(len([]rune(w)))
				ws = append(ws, &word{bb: document.BBox{X0: x, Y0: y, X1: x + wd, Y1: y + 10}, text: w, size: 10})
				x += wd + 4
			}
		}
		return ws
	}
	for _, c := range []struct {
		ws   []*word
		want string
	}{
		{cell([]string{"Net", "income", "for"}, []string{"the", "year", "ended"}, []string{"31", "December", "2024"}),
			"Net income for the year ended 31 December 2024"},
		{append(cell([]string{"change"}), &word{bb: document.BBox{X0: 120, Y0: 100, X1: 124, Y1: 110}, text: "-", size: 10},
			&word{bb: document.BBox{X0: 124.5, Y0: 100, X1: 140, Y1: 110}, text: "12.5", size: 10}), "change -12.5"},
		{cell([]string{"扣除非经常性损"}, []string{"益的净利润", "(元)"}), "扣除非经常性损益的净利润 (元)"},
		{cell([]string{"  padded "}, []string{"x"}), "padded  x"},
	} {
		if got := cellText(c.ws); got != c.want {
			t.Errorf("cellText = %q, want %q", got, c.want)
		}
	}
	ws := cell([]string{"Net", "income", "for"}, []string{"the", "year", "ended"}, []string{"31", "December", "2024"})
	if n := testing.AllocsPerRun(50, func() { cellText(ws) }); n > 4 {
		t.Errorf("cellText of 9 words on 3 lines: %.0f allocations, want at most 4 (lineUp's 3 and the text)", n)
	}
}
