package pdftest

import (
	"bytes"
	"fmt"
	"os"
	"unicode"

	"codeberg.org/go-pdf/fpdf"
)

// UnicodeFont is a TrueType font with Latin, Hebrew and Arabic glyphs
// (Debian's fonts-dejavu-core, which `make setup` installs).
const UnicodeFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

// Order is how a producer writes right-to-left text into a PDF.
type Order int

const (
	// Visual: each line's string in display order, drawn left to right
	// (the RTL runs reversed by the producer).
	Visual Order = iota
	// Logical: characters in reading order, each placed at its display
	// position (RTL characters right to left).
	Logical
)

// RTLPDF writes lines (in logical order) as a PDF with the embedded
// UnicodeFont, right-aligned when their first strong character is
// right-to-left, in the given producer order. Arabic letters are written
// unshaped (isolated forms), which changes glyphs, not order.
func RTLPDF(lines []string, order Order) ([]byte, error) {
	items := make([]RTLItem, len(lines))
	for i, l := range lines {
		items[i] = RTLItem{X: 72, Y: 72 + float64(i)*20, S: l}
		if rtlFirst(l) {
			items[i] = RTLItem{X: 612 - 72, Y: items[i].Y, Right: true, S: l}
		}
	}
	return RTLPagePDF(items, nil, order)
}

// RTLItem is one text of an RTL fixture page: S in logical order, its
// baseline at Y (from the page's top), starting at X, or ending at X when
// Right.
type RTLItem struct {
	X, Y  float64
	Right bool
	S     string
}

// RTLPagePDF writes one Letter page of items in UnicodeFont 12pt, in the
// given producer order, and 0.5pt horizontal rules (x0, x1, y from the
// top).
func RTLPagePDF(items []RTLItem, rules [][3]float64, order Order) ([]byte, error) {
	ttf, err := os.ReadFile(UnicodeFont)
	if err != nil {
		return nil, fmt.Errorf("font for RTL fixtures: %w (install fonts-dejavu-core)", err)
	}
	f := fpdf.New("P", "pt", "Letter", "")
	f.AddUTF8FontFromBytes("dejavu", "", ttf)
	f.SetFont("dejavu", "", 12)
	f.AddPage()
	f.SetLineWidth(0.5)
	for _, r := range rules {
		f.Line(r[0], r[2], r[1], r[2])
	}
	for _, it := range items {
		l, y := it.S, it.Y
		vis := VisualOrder(l)
		w := 0.0
		for _, r := range vis {
			w += f.GetStringWidth(string(r))
		}
		x := it.X
		if it.Right {
			x -= w
		}
		if order == Visual {
			f.Text(x, y, string(vis))
			continue
		}
		// Logical: place each character where the visual order puts it.
		pos := make(map[int]float64, len(vis))
		xs := x
		for _, k := range visualIndex(l) {
			pos[k] = xs
			xs += f.GetStringWidth(string([]rune(l)[k]))
		}
		for k, r := range []rune(l) {
			if r != ' ' {
				f.Text(pos[k], y, string(r))
			}
		}
	}
	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func isRTL(r rune) bool {
	return unicode.In(r, unicode.Hebrew, unicode.Arabic)
}

func rtlFirst(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return isRTL(r)
		}
	}
	return false
}

// VisualOrder is s as displayed, for the fixtures' simple lines: words of
// letters and numbers separated by spaces and punctuation. A line whose
// first letter is RTL displays right to left with its LTR runs (Latin
// words and numbers, and the spaces between Latin words) kept left to
// right; an LTR line reverses its runs of RTL words.
func VisualOrder(s string) []rune {
	rs := []rune(s)
	out := make([]rune, len(rs))
	for i, k := range visualIndex(s) {
		out[i] = rs[k]
	}
	return out
}

// visualIndex: the logical index of each display position.
func visualIndex(s string) []int {
	rs := []rune(s)
	idx := make([]int, len(rs))
	for i := range idx {
		idx[i] = i
	}
	ltr := func(r rune) bool { return unicode.IsLetter(r) && !isRTL(r) || unicode.IsDigit(r) }
	rev := func(a []int) {
		for i, j := 0, len(a)-1; i < j; i, j = i+1, j-1 {
			a[i], a[j] = a[j], a[i]
		}
	}
	if rtlFirst(s) {
		rev(idx)
		for i := 0; i < len(idx); {
			if !ltr(rs[idx[i]]) {
				i++
				continue
			}
			j := i + 1
			for j < len(idx) && (ltr(rs[idx[j]]) || rs[idx[j]] == ' ' && j+1 < len(idx) && unicode.IsLetter(rs[idx[j+1]]) && !isRTL(rs[idx[j+1]]) && unicode.IsLetter(rs[idx[j-1]])) {
				j++
			}
			rev(idx[i:j])
			i = j
		}
		return idx
	}
	for i := 0; i < len(idx); {
		if !isRTL(rs[idx[i]]) {
			i++
			continue
		}
		end := i
		for k := i + 1; k < len(idx) && !(unicode.IsLetter(rs[idx[k]]) && !isRTL(rs[idx[k]])); k++ {
			if isRTL(rs[idx[k]]) {
				end = k
			}
		}
		rev(idx[i : end+1])
		for a := i; a <= end; { // numbers inside still read left to right
			b := a
			for b <= end && unicode.IsDigit(rs[idx[b]]) {
				b++
			}
			if b > a {
				rev(idx[a:b])
				a = b
			} else {
				a++
			}
		}
		i = end + 1
	}
	return idx
}
