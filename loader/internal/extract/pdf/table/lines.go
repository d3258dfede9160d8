package table

import (
	"iter"
	"math"
	"sync"

	"github.com/docket-dev/docket/loader/internal/document"
)

// textLine is words on one baseline, left to right.
type textLine struct {
	ws     []*word
	bb     document.BBox
	size   float64
	starts []int // index in ws of each segment start (gap ≥ segGap)
}

// lineUp groups words into lines by vertical overlap, top to bottom.
// It takes the builtin min and max, not math.Min and math.Max: those are
// an assembly call each on amd64 (0.5 % of the instructions of extracting
// the 149 corpus PDFs, most of them here), the builtins are inline, and
// the language gives them math's answers (NaN wins, max(-0, +0) is +0,
// min of them -0).
func lineUp(ws []*word) []*textLine {
	n := len(ws)
	if n == 0 {
		return nil
	}
	// sorted, lineOf and count (never more lines than words) are this
	// call's own, from linePool; all (the lines' words) is the lines'.
	sc := linePool.Get().(*lineScratch)
	defer sc.put(n)
	sorted := sc.words(n)
	copy(sorted, ws)
	// by vertical centre, stably (the order slices.SortStableFunc gave)
	kw := sc.keyedWords(2 * n)
	for i, w := range sorted {
		kw[i] = keyed[*word]{w.cy(), w}
	}
	applyKeyed(sorted, kw)
	ints := sc.int32s(2 * n)
	lineOf := ints[:n:n]
	// First the words' lines: a word joins one of the last three lines or
	// starts a new one, so those three are all that is kept (a ring).
	var ring [3]textLine
	nl := 0
	for i, w := range sorted {
		best := -1
		// lines are few per region; look back a little for one that overlaps
		for k := nl - 1; k >= 0 && k >= nl-3; k-- {
			l := &ring[k%3]
			h := min(l.bb.Y1-l.bb.Y0, w.bb.Y1-w.bb.Y0)
			ov := min(l.bb.Y1, w.bb.Y1) - max(l.bb.Y0, w.bb.Y0)
			if ov > 0.5*h && math.Abs(l.cy()-w.cy()) < 0.5*max(l.size, w.size) {
				best = k
				break
			}
		}
		if best < 0 {
			ring[nl%3] = textLine{bb: w.bb, size: w.size}
			best = nl
			nl++
		} else {
			l := &ring[best%3]
			l.bb = l.bb.Union(w.bb)
			l.size = max(l.size, w.size)
		}
		lineOf[i] = int32(best)
	}
	// Then the lines, one array at its size: boxes and sizes built again
	// in the same order, so to the same values.
	vals := make([]textLine, nl)
	count := ints[n : n+nl]
	for i, w := range sorted {
		k := lineOf[i]
		l := &vals[k]
		if count[k] == 0 {
			l.bb, l.size = w.bb, w.size
		} else {
			l.bb = l.bb.Union(w.bb)
			l.size = max(l.size, w.size)
		}
		count[k]++
	}
	lines := make([]*textLine, len(vals))
	for k := range vals {
		lines[k] = &vals[k]
	}
	// The lines' words share one array (growing a slice per line was half
	// of this function's time), in the order they were assigned.
	all := make([]*word, n)
	off := 0
	for k, l := range lines {
		c := int(count[k])
		l.ws = all[off : off : off+c]
		off += c
	}
	for i, w := range sorted {
		l := lines[lineOf[i]]
		l.ws = append(l.ws, w)
	}
	for _, l := range lines {
		sc.sortByX0(l.ws)
	}
	sc.sortByY0(lines)
	return lines
}

// lineScratch holds lineUp's temporaries between calls: lineUp runs many
// times a page (per region, per candidate table, per cell), and its
// temporaries were ~6 % of the bytes a PDF worker allocated over the 149
// corpus PDFs (allocation profile).
type lineScratch struct {
	sorted []*word
	ints   []int32
	kw     []keyed[*word] // sortKeyed's: the keys and the merge's room
	kl     []keyed[*textLine]
}

var linePool = sync.Pool{New: func() any { return new(lineScratch) }}

// words is the scratch's words array for n words.
func (sc *lineScratch) words(n int) []*word {
	if cap(sc.sorted) < n {
		sc.sorted = make([]*word, n)
	}
	return sc.sorted[:n:n]
}

// int32s is the scratch's zeroed int32 array of n.
func (sc *lineScratch) int32s(n int) []int32 {
	if cap(sc.ints) < n {
		sc.ints = make([]int32, n)
		return sc.ints
	}
	s := sc.ints[:n]
	clear(s)
	return s
}

// keyedWords is the scratch's keyed words array of n.
func (sc *lineScratch) keyedWords(n int) []keyed[*word] {
	if cap(sc.kw) < n {
		sc.kw = make([]keyed[*word], n)
	}
	return sc.kw[:n]
}

// sortByX0 sorts ws stably by left edge (slices.SortStableFunc's order
// of cmp.Compare(a.bb.X0, b.bb.X0)).
func (sc *lineScratch) sortByX0(ws []*word) {
	kw := sc.keyedWords(2 * len(ws))
	for i, w := range ws {
		kw[i] = keyed[*word]{w.bb.X0, w}
	}
	applyKeyed(ws, kw)
}

// sortByY0 sorts lines stably by top edge, as sortByX0.
func (sc *lineScratch) sortByY0(lines []*textLine) {
	if cap(sc.kl) < 2*len(lines) {
		sc.kl = make([]keyed[*textLine], 2*len(lines))
	}
	kl := sc.kl[:2*len(lines)]
	for i, l := range lines {
		kl[i] = keyed[*textLine]{l.bb.Y0, l}
	}
	applyKeyed(lines, kl)
}

// put returns the scratch to linePool, the n words it held let go.
func (sc *lineScratch) put(n int) {
	clear(sc.sorted[:n])
	linePool.Put(sc)
}

func (l *textLine) cy() float64 { return (l.bb.Y0 + l.bb.Y1) / 2 }

// splitsBefore: a phrase of l starts at its word i > 0 (a gap of at
// least gap before it, or a column's start: markColumnStarts).
func (l *textLine) splitsBefore(i int, gap float64) bool {
	g := l.ws[i].bb.X0 - l.ws[i-1].bb.X1
	return g >= gap || l.ws[i].col && g > 0
}

// nSegments is len(l.segments(gap)), without building them.
func (l *textLine) nSegments(gap float64) int {
	n := 0
	for i := 1; i <= len(l.ws); i++ {
		if i == len(l.ws) || l.splitsBefore(i, gap) {
			n++
		}
	}
	return n
}

// appendSegmentBoxes appends to out the box of each of l.segments(gap),
// as boxOf gives it, without building the segments.
func (l *textLine) appendSegmentBoxes(out []document.BBox, gap float64) []document.BBox {
	for i, w := range l.ws {
		if i == 0 || l.splitsBefore(i, gap) {
			out = append(out, w.bb)
		} else {
			out[len(out)-1] = out[len(out)-1].Union(w.bb)
		}
	}
	return out
}

// segments splits a line where the gap between words is at least gap,
// and before a word that starts a column (markColumnStarts).
func (l *textLine) segments(gap float64) [][]*word {
	out := make([][]*word, 0, l.nSegments(gap))
	start := 0
	for i := 1; i <= len(l.ws); i++ {
		if i == len(l.ws) || l.splitsBefore(i, gap) {
			out = append(out, l.ws[start:i])
			start = i
		}
	}
	return out
}

// eachSegment yields the line's segments (see segments) without making
// a slice of them.
func (l *textLine) eachSegment(gap float64) iter.Seq[[]*word] {
	return func(yield func([]*word) bool) {
		start := 0
		for i := 1; i <= len(l.ws); i++ {
			if i == len(l.ws) || l.splitsBefore(i, gap) {
				if !yield(l.ws[start:i]) {
					return
				}
				start = i
			}
		}
	}
}
