package table

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

// word is a run of characters without a space or a wide gap.
type word struct {
	bb   document.BBox
	text string
	size float64
	bold bool
	mono bool // its line's font is fixed-pitch (code, terminal output)
	col  bool // starts a phrase, whatever the gap before it (markColumnStarts)
	edge bool // starts a column of words aligned on their left edge (markColumnStarts)
	fend bool // ends a column of figures aligned on their right edge (markFigureEnds)
	used bool // taken by a table already
	// down: a cell's text spanning its row and the next, moved up from
	// between them (spanLabels)
	down bool
	// lead: the page's text leading over its size (pageLeading) in
	// hundredths, 0 when unknown
	lead uint8
	// leadHidden: the lead is read as 0 (textTable's evidence grid,
	// hideLead); leadAsked: it was read so on this line's first word
	// where its value would have changed the answer (rowPitch)
	leadHidden, leadAsked bool
	// crow: in a cell vertically centred in its row beside a taller one
	// (topAlignCentred moved it up to the row's top, or left it there),
	// the row's number from 1 (0: in no such row)
	crow uint16
}

func (w *word) cx() float64 { return (w.bb.X0 + w.bb.X1) / 2 }
func (w *word) cy() float64 { return (w.bb.Y0 + w.bb.Y1) / 2 }

// wordScratch is the arrays words fills, kept for the next page: a
// detector that reuses them allocates them once per document instead of
// once per page (they were ~9 % of a PDF worker's allocated bytes). The
// words of a page are dead once DetectTables returns (tables hold text,
// never words).
type wordScratch struct {
	all  []word
	ptrs []*word
}

// words are the words of the layout's horizontal lines (Layout built with
// pdf.Words). Rotated text is left out (it is rarely a table cell and
// would break alignment). With sc they are in sc's arrays, valid until
// the next call with sc.
func words(lay *pdf.Layout, sc *wordScratch) []*word {
	n := 0
	for bi := range lay.Blocks {
		for li := range lay.Blocks[bi].Lines {
			n += len(lay.Blocks[bi].Lines[li].Words)
		}
	}
	var all []word
	if sc != nil && cap(sc.all) >= n {
		all = sc.all[:0]
	} else {
		all = make([]word, 0, n)
	}
	for bi := range lay.Blocks {
		b := &lay.Blocks[bi]
		for li := range b.Lines {
			ln := &b.Lines[li]
			if ln.Dir[0] < 0.9 || math.Abs(ln.Dir[1]) > 0.2 {
				continue
			}
			mono := ln.Font >= 0 && ln.Font < len(lay.Fonts) && lay.Fonts[ln.Font].Mono
			for _, w := range ln.Words {
				all = append(all, word{bb: w.BBox, text: w.Text, size: w.Size, bold: w.Bold, mono: mono})
			}
		}
	}
	var out []*word
	if sc != nil && cap(sc.ptrs) >= len(all) {
		out = sc.ptrs[:len(all)]
	} else {
		out = make([]*word, len(all))
	}
	for i := range all {
		out[i] = &all[i]
	}
	if sc != nil {
		sc.all, sc.ptrs = all, out
	}
	return out
}

func inside(w *word, b document.BBox) bool {
	cx, cy := w.cx(), w.cy()
	return cx >= b.X0 && cx <= b.X1 && cy >= b.Y0 && cy <= b.Y1
}

// boxed is what boxOf takes the union of: words and lines.
type boxed interface{ box() document.BBox }

func (w *word) box() document.BBox     { return w.bb }
func (l *textLine) box() document.BBox { return l.bb }

// boxOf is the union of the boxes of a non-empty run of words or lines.
func boxOf[T boxed](xs []T) document.BBox {
	b := xs[0].box()
	for _, x := range xs[1:] {
		b = b.Union(x.box())
	}
	return b
}

// unspaced: a cell's line ending in a and the next starting with b are
// one run of Chinese or Japanese text wrapped at the cell's edge, which
// joins without a space ("扣除非经常性损" and "益的净利润").
func unspaced(a []byte, b string) bool {
	r, _ := utf8.DecodeLastRune(a)
	s, _ := utf8.DecodeRuneInString(b)
	return UnspacedRune(r) && UnspacedRune(s)
}

// UnspacedRune: r is of a script written without spaces between words
// (Han, Hiragana, Katakana) or CJK or fullwidth punctuation ("，" "（"),
// so a line break next to it is no space. Korean sets spaces between
// words: Hangul is not among these.
func UnspacedRune(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) ||
		r >= 0x3000 && r <= 0x303f || r >= 0xff01 && r <= 0xff60
}

// cellText joins words into text: lines top to bottom, words in reading
// order (left to right but in a right-to-left line, see rtl.go).
func cellText(ws []*word) string {
	var s string
	switch len(ws) {
	case 0:
		return ""
	case 1:
		// one word is one line of one word, in any reading order: its
		// text, without lining it up (most cells are one word)
		s = ws[0].text
	default:
		// The parts (a word, or words joined without a space) joined by
		// spaces, written into one pooled buffer: the parts slice, the
		// joins and strings.Join were ~14 % of a PDF worker's allocations.
		lines := lineUp(ws)
		bp := textBufPool.Get().(*[]byte)
		b, last := (*bp)[:0], -1 // last: where the last part starts in b
		for k, l := range lines {
			ws := readingOrder(l.ws)
			for i, w := range ws {
				if i > 0 && signTouches(ws[i-1], w) || i == 0 && k > 0 && unspaced(b[last:], w.text) {
					b = append(b, w.text...)
					continue
				}
				if last >= 0 {
					b = append(b, ' ')
				}
				last = len(b)
				b = append(b, w.text...)
			}
		}
		s = string(b)
		*bp = b
		textBufPool.Put(bp)
	}
	if strings.Count(s, ".")+strings.Count(s, "…") >= 4 { // else leaderRe cannot match
		s = noLeaders(s)
	}
	return strings.TrimSpace(s)
}

// textBufPool holds cellText's buffers.
var textBufPool = sync.Pool{New: func() any { return new([]byte) }}

// noLeaders is leaderRe.ReplaceAllString(s, " ") without the regexp
// engine, which ran on every cell with four points (~3,000 cells of the
// 149 corpus PDFs, most of them real leaders): 0.4 % of the instructions
// of extracting them (callgrind). A match of leaderRe is its greedy one:
// from its start, every run of white space (\s) that ends in a point or
// ellipsis, as long as such runs follow (white space cannot end one, so
// a run that meets anything else is not taken), four runs or more, then
// the white space after. No match starts inside fewer than four runs or
// the white space after them, so the scan goes on past them; after a
// match it goes on at its end, as ReplaceAllString's does.
// TestNoLeadersIsLeaderRe compares both.
func noLeaders(s string) string {
	var b []byte // nil until the first leader
	last := 0    // s[last:i] is not copied to b yet
	for i := 0; i < len(s); {
		n, j, p := 0, i, i // runs taken, the end of the last one, how far the scan read
		for {
			for p < len(s) && pdf.RegexpSpace(s[p]) {
				p++
			}
			if p == len(s) {
				break
			}
			r, size := utf8.DecodeRuneInString(s[p:])
			if r != '.' && r != '…' {
				break
			}
			p += size
			n, j = n+1, p
		}
		if n < 4 {
			if p == i {
				_, size := utf8.DecodeRuneInString(s[i:])
				p += size
			}
			i = p
			continue
		}
		for j < len(s) && pdf.RegexpSpace(s[j]) {
			j++
		}
		b = append(append(b, s[last:i]...), ' ')
		i, last = j, j
	}
	if b == nil {
		return s
	}
	return string(append(b, s[last:]...))
}

// leaderRe matches dot leaders ("Item ........ 12").
var leaderRe = regexp.MustCompile(`(?:\s*[.…]){4,}\s*`)

var placeRe = regexp.MustCompile(`^(?:[-–—:.x*]|\.\.|\.\.\.|n/?a|n\.a\.|-{2,}|–{2,}|\((?:na|x|d|s|z|b|nc|\*)\))$`)

// numeric reports whether a cell holds a number (thousands separators,
// decimal comma, percent, negative in parentheses allowed), with or
// without a footnote mark after it ("12.3 (p)", "$761(1)", "631**") or
// its margin of error ("9,112 (+/-7.6)").
func numeric(s string) bool {
	s = withoutCurrency(strings.TrimSpace(s))
	if r, _ := utf8.DecodeRuneInString(s); unicode.IsLetter(r) {
		return false // a number starts with a sign, a currency, a digit or a point (pdf.IsNumber)
	}
	if s == "" || len(s) >= 40 {
		return false
	}
	if !strings.ContainsAny(s, "0123456789") {
		return false // a number has a digit, in s or in s less its mark
	}
	if pdf.IsNumber(s) {
		return true
	}
	if c := s[len(s)-1]; c != ')' && c != '*' {
		return false
	}
	if i := strings.LastIndexByte(s, ' '); i > 0 && marginRe.MatchString(s[i+1:]) {
		// a value and its margin of error, "9,112 (+/-7.6)"
		return pdf.IsNumber(strings.TrimSpace(s[:i]))
	}
	t := strings.TrimSpace(markRe.ReplaceAllString(s, ""))
	return t != "" && t != s && pdf.IsNumber(t)
}

// markRe is a footnote mark at the end of a value: a number or a letter
// or two in parentheses, or asterisks.
var markRe = regexp.MustCompile(`(?:\((?:\d{1,2}|[A-Za-z]{1,2})\)|\*{1,3})$`)

// dateRe matches a date or a time of day: "12/01/2020", "2020-01-12",
// "Jan. 12, 2020", "12 January 2020", "9:00 a.m.", "14:30".
var dateRe = regexp.MustCompile(`(?i)^(?:\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}|(?:\d{1,2} )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?(?: \d{1,2},?)?(?: \d{4})?|\d{1,2}:\d{2}(?: ?[ap]\.?m\.?)?)$`)

// dateTime: the cell is a date or a time, a value of a column like a
// number (a schedule's column of dates says table as its numbers would).
func dateTime(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) >= 3 && len(s) < 24 && strings.ContainsAny(s, "0123456789") && dateRe.MatchString(s)
}

// placeholder is a cell standing for a missing number ("-", ":", "n.a.",
// and the statistical agencies' symbols in parentheses: "(NA)" not
// available, "(X)" not applicable, "(D)" withheld, "(S)" not meeting
// standards, "(Z)" rounds to zero, "(B)" base too small).
func placeholder(s string) bool {
	s = strings.TrimSpace(s)
	// placeRe's first character, before lower-casing (only X and N lower
	// to one of them): anything else cannot match
	if r, _ := utf8.DecodeRuneInString(s); !strings.ContainsRune("-–—:.xX*nN(", r) {
		return false
	}
	return placeRe.MatchString(strings.ToLower(s))
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var c valueCount
	for _, x := range xs {
		if !c.add(x) {
			var buf [64]float64 // most calls: no allocation
			s := append(buf[:0], xs...)
			slices.Sort(s) // what sort.Float64s does
			return s[len(s)/2]
		}
	}
	return c.median()
}

// medianSize is the median font size of ws (0 for none).
func medianSize(ws []*word) float64 {
	if len(ws) == 0 {
		return 0
	}
	var c valueCount
	for _, w := range ws {
		if !c.add(w.size) {
			var buf [64]float64
			sizes := buf[:0]
			for _, w := range ws {
				sizes = append(sizes, w.size)
			}
			slices.Sort(sizes)
			return sizes[len(sizes)/2]
		}
	}
	return c.median()
}

// valueCount counts up to 16 distinct values, for a median without a
// sort (a page's font sizes are few). add refuses 0 and NaN: equal zeros
// can differ in sign and NaNs equal nothing, so which one a sort puts in
// the middle is the sort's; any other two values that compare equal are
// the same bits, and the middle of the sorted values is the same value
// however it is found.
type valueCount struct {
	vals   [16]float64
	counts [16]int
	d, n   int
}

func (c *valueCount) add(x float64) bool {
	if x == 0 || x != x {
		return false
	}
	for i := 0; i < c.d; i++ {
		if c.vals[i] == x {
			c.counts[i]++
			c.n++
			return true
		}
	}
	if c.d == len(c.vals) {
		return false
	}
	c.vals[c.d], c.counts[c.d] = x, 1
	c.d++
	c.n++
	return true
}

// median is what sorting the values added and taking element n/2 gives.
func (c *valueCount) median() float64 {
	for i := 1; i < c.d; i++ { // insertion sort of the distinct values
		for j := i; j > 0 && c.vals[j] < c.vals[j-1]; j-- {
			c.vals[j], c.vals[j-1] = c.vals[j-1], c.vals[j]
			c.counts[j], c.counts[j-1] = c.counts[j-1], c.counts[j]
		}
	}
	k := c.n / 2
	for i := 0; i < c.d; i++ {
		if k < c.counts[i] {
			return c.vals[i]
		}
		k -= c.counts[i]
	}
	return 0 // not reached: k < n
}

// freeWords are the words of ws no table has taken yet, inside box when
// box is not nil.
func freeWords(ws []*word, box *document.BBox) []*word {
	n := 0
	for _, w := range ws {
		if !w.used && (box == nil || inside(w, *box)) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]*word, 0, n)
	for _, w := range ws {
		if !w.used && (box == nil || inside(w, *box)) {
			out = append(out, w)
		}
	}
	return out
}
