package pdf

import (
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/bidi"

	"github.com/docket-dev/docket/loader/internal/document"
)

// Right-to-left text. PDF producers write Arabic and Hebrew either in
// logical order with each glyph placed right to left, or already in
// visual order (the string reversed, drawn left to right); MuPDF's
// structured text keeps the content order either way, so a line comes out
// reversed for some files, and its word builder, which follows the pen
// left to right, cuts logical-order RTL text into single letters. A line
// holding RTL characters is therefore rebuilt from its characters'
// positions: sorted left to right (the visual order, whatever the
// producer did), then turned into logical order by reversing the runs the
// Unicode bidirectional algorithm would have reversed, as pdftotext does.
// golang.org/x/text/unicode/bidi supplies the character classes; its
// Ordering does not reorder runs (v0.44), and the direction here is the
// inverse one (visual to logical), so the run reversal is done here.

// rtlChar is one character of a line that holds RTL text.
type rtlChar struct {
	r    rune
	box  document.BBox
	size float64
	bold bool
	mark bool // a combining mark: travels with its base character
	cls  rtlClass
}

type rtlClass uint8

const (
	clsNeutral rtlClass = iota
	clsL
	clsR
	clsNum
)

// mayBeRTL is a cheap filter for the page walk's hot loop: the Unicode
// blocks of Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic and
// their presentation forms.
func mayBeRTL(r rune) bool {
	return r >= 0x0590 && r <= 0x08FF || r >= 0xFB1D && r <= 0xFDFF || r >= 0xFE70 && r <= 0xFEFC
}

func classOf(r rune) rtlClass {
	p, _ := bidi.LookupRune(r)
	switch p.Class() {
	case bidi.L:
		return clsL
	case bidi.R, bidi.AL:
		return clsR
	case bidi.EN, bidi.AN:
		return clsNum
	}
	return clsNeutral
}

// numberSep joins two digits into one number ("1,234.5", "12:30", "3/4").
func numberSep(r rune) bool {
	switch r {
	case '.', ',', ':', '/', '-', '\u066B', '\u066C', '\u060C':
		return true
	}
	return false
}

// logicalOrder returns the line's characters in logical reading order
// (indices into cs), or nil when the line holds no RTL letter. cs is in
// content order with boxes.
func logicalOrder(cs []rtlChar) []int {
	nR, nL := 0, 0
	for i := range cs {
		c := &cs[i]
		c.cls = classOf(c.r)
		c.mark = unicode.Is(unicode.Mn, c.r)
		switch c.cls {
		case clsR:
			nR++
		case clsL:
			nL++
		}
	}
	if nR == 0 {
		return nil
	}
	// Visual order: base characters by the centre of their boxes; a
	// combining mark follows the base whose box holds its centre (or the
	// character before it in content order).
	var vis []int
	for i := range cs {
		if !cs[i].mark {
			vis = append(vis, i)
		}
	}
	sort.SliceStable(vis, func(a, b int) bool {
		ba, bb := cs[vis[a]].box, cs[vis[b]].box
		return ba.X0+ba.X1 < bb.X0+bb.X1
	})
	marks := map[int][]int{}
	for i := range cs {
		if !cs[i].mark {
			continue
		}
		base := -1
		cx := (cs[i].box.X0 + cs[i].box.X1) / 2
		for _, j := range vis {
			if b := cs[j].box; cx >= b.X0 && cx <= b.X1 && cs[j].cls != clsNeutral {
				base = j
				break
			}
		}
		if base < 0 {
			for j := i - 1; j >= 0; j-- {
				if !cs[j].mark {
					base = j
					break
				}
			}
		}
		if base < 0 {
			vis = append([]int{i}, vis...)
			continue
		}
		marks[base] = append(marks[base], i)
	}
	seq := visualToLogical(cs, vis, nR > nL)
	out := make([]int, 0, len(cs))
	for _, i := range seq {
		out = append(out, i)
		out = append(out, marks[i]...)
	}
	return out
}

// visualToLogical reorders vis (indices into cs, left to right) into
// logical order. In a right-to-left line the whole line is reversed and
// then its left-to-right runs (Latin words, numbers) turned back; in a
// left-to-right line only its right-to-left runs are reversed, numbers
// inside them turned back.
func visualToLogical(cs []rtlChar, vis []int, rtl bool) []int {
	seq := append([]int(nil), vis...)
	cls := func(k int) rtlClass { return cs[seq[k]].cls }
	if rtl {
		reverse(seq)
		// LTR runs: L characters (and numbers touching them) with the
		// neutrals between two L characters; numbers with their
		// separators.
		for i := 0; i < len(seq); {
			if c := cls(i); c != clsL && c != clsNum {
				i++
				continue
			}
			j := i + 1
			for j < len(seq) {
				c := cls(j)
				if c == clsL || c == clsNum {
					j++
					continue
				}
				// neutrals: join when an L follows and an L precedes,
				// or a separator sits between two digits
				k := j
				for k < len(seq) && cls(k) == clsNeutral {
					k++
				}
				if k < len(seq) && cls(k) == clsL && cls(j-1) == clsL {
					j = k
					continue
				}
				if k == j+1 && k < len(seq) && cls(k) == clsNum && cls(j-1) == clsNum && numberSep(cs[seq[j]].r) {
					j = k
					continue
				}
				break
			}
			reverse(seq[i:j])
			i = j
		}
		return seq
	}
	// LTR line: RTL runs start and end with an R character and hold no L.
	for i := 0; i < len(seq); {
		if cls(i) != clsR {
			i++
			continue
		}
		end := i // last R of the run
		for k := i + 1; k < len(seq) && cls(k) != clsL; k++ {
			if cls(k) == clsR {
				end = k
			}
		}
		run := seq[i : end+1]
		reverse(run)
		// numbers inside read left to right
		for a := 0; a < len(run); {
			if cs[run[a]].cls != clsNum {
				a++
				continue
			}
			b := a + 1
			for b < len(run) && (cs[run[b]].cls == clsNum || b+1 < len(run) && numberSep(cs[run[b]].r) && cs[run[b+1]].cls == clsNum) {
				b++
			}
			reverse(run[a:b])
			a = b
		}
		i = end + 1
	}
	return seq
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// rtlText builds a line's text and words from its characters in logical
// order: words end at white space and between two characters whose boxes
// are further apart than 0.3 of the font size (in either direction: RTL
// runs go right to left), where a space is put in the text when the PDF
// had none (glyphs placed one by one). A word's start and end are byte
// offsets into the text; trailing spaces are trimmed.
func rtlText(cs []rtlChar, order []int) (string, []Word) {
	var b strings.Builder
	var words []Word
	var bold, vis []int // per word: bold and all characters
	cur, prev := -1, -1
	for _, i := range order {
		c := &cs[i]
		if unicode.IsSpace(c.r) || c.box.X1-c.box.X0 <= 0 && c.box.Y1-c.box.Y0 <= 0 && !c.mark {
			cur, prev = -1, -1
			b.WriteRune(c.r)
			continue
		}
		if cur >= 0 && !c.mark && prev >= 0 {
			p := cs[prev].box
			if gap := max(c.box.X0-p.X1, p.X0-c.box.X1); gap > 0.3*max(c.size, cs[prev].size) {
				cur = -1
				b.WriteByte(' ')
			}
		}
		if cur < 0 {
			words = append(words, Word{BBox: c.box, Size: c.size, start: b.Len()})
			bold, vis = append(bold, 0), append(vis, 0)
			cur = len(words) - 1
		} else {
			w := &words[cur]
			w.BBox = w.BBox.Union(c.box)
			w.Size = max(w.Size, c.size)
		}
		b.WriteRune(c.r)
		words[cur].end = b.Len()
		vis[cur]++
		if c.bold {
			bold[cur]++
		}
		if !c.mark {
			prev = i
		}
	}
	text := strings.TrimRight(b.String(), " ")
	for k := range words {
		words[k].Text = text[words[k].start:words[k].end]
		words[k].Bold = bold[k]*2 > vis[k]
	}
	return text, words
}
