package table

import (
	"math"
	"strings"
)

// repeatedHead is where a run's first line, a head line of two words or
// more and no digit, comes again at the start of a later line (the same
// words in order, in the same size, its first word on the same left
// edge, 2pt): a second table under the first one, in the same style and
// no farther apart than rows, its heads starting with the first table's
// ("Country Capital" over two rows, then "Country Capital Population (m)
// Area (km²)"). One table does not repeat its heads on a page. The cut k
// leaves two lines at least on each side; 0 when there is none.
func repeatedHead(run []*textLine) int {
	h := run[0]
	if len(h.ws) < 2 || len(run) < 4 {
		return 0
	}
	for _, w := range h.ws {
		if strings.ContainsAny(w.text, "0123456789") {
			return 0
		}
	}
	for k := 2; k+2 <= len(run); k++ {
		if headAgain(h, run[k]) {
			return k
		}
	}
	return 0
}

// headAgain: l starts with h's words, in order, in h's size, its first
// word on h's left edge (2pt).
func headAgain(h, l *textLine) bool {
	if len(l.ws) < len(h.ws) || math.Abs(l.ws[0].bb.X0-h.ws[0].bb.X0) > 2 || math.Abs(l.size-h.size) > 0.1*h.size {
		return false
	}
	for i, w := range h.ws {
		if l.ws[i].text != w.text {
			return false
		}
	}
	return true
}
