package pdf

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/docket-dev/docket/loader/internal/document"
)

// para is a paragraph-like unit: lines of one MuPDF block that belong
// together, or an image. It is what elements are made of.
type para struct {
	lines    []Line
	bbox     document.BBox
	text     string
	size     float64 // dominant font size (by visible chars)
	bold     bool
	image    bool
	nchars   int // visible chars
	cat      document.Category
	level    int
	seq      int // MuPDF content order on the page, for stable fallbacks
	colLeft  float64
	furnTop  bool // furniture at the top (Header, top PageNumber)
	furnBot  bool
	tableSeq int
}

var (
	bulletRe   = regexp.MustCompile(`^\s*(?:[•·▪■◦‣●○□➢➤►▶✓✔\x{F0B7}\x{F0A7}\x{F076}\x{F0D8}*–—-])(?:\s+|$)`)
	numListRe  = regexp.MustCompile(`^\s*(?:\(?(?:\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,5})\)|\d{1,3}\.|[a-z]\.)(?:\s+|$)`)
	numHeadRe  = regexp.MustCompile(`^\s*(?:(?:\d{1,2}(?:\.\d{1,2})*\.?)|(?:[A-Z]\.)|(?:[IVX]{1,5}\.)|(?:(?:chapter|section|article|part)\s+[0-9IVXLC]+[.:]?))\s+\S`)
	numDepthRe = regexp.MustCompile(`^\s*(\d{1,2}(?:\.\d{1,2})*)\.?\s`)
)

func isListStart(s string) bool {
	// Cheap pre-check (the regexps dominate paragraph building otherwise):
	// a marker starting with a letter, digit or '(' is one short token
	// ending in ')' or '.', as numListRe requires.
	t := strings.TrimLeft(s, " \t\n\f\r")
	if t == "" {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(t); r == '(' || unicode.IsLetter(r) || unicode.IsDigit(r) {
		tok := t
		if i := strings.IndexAny(t, " \t\n\f\r"); i >= 0 {
			tok = t[:i]
		}
		if len(tok) > 8 || !(strings.HasSuffix(tok, ")") || strings.HasSuffix(tok, ".")) {
			return false
		}
	}
	return bulletRe.MatchString(s) || numListRe.MatchString(s)
}

// isBulletOnly: a line that is nothing but a bullet glyph (drawn apart
// from its text).
func isBulletOnly(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || utf8.RuneCountInString(s) > 3 {
		return false
	}
	return bulletRe.MatchString(s) || numListRe.MatchString(s)
}

func height(b document.BBox) float64 { return b.Y1 - b.Y0 }
func width(b document.BBox) float64  { return b.X1 - b.X0 }

// union is BBox.Union where a zero box (nothing yet) contributes nothing.
func union(a, b document.BBox) document.BBox {
	if a == (document.BBox{}) {
		return b
	}
	return a.Union(b)
}

func xOverlap(a, b document.BBox) float64 { return min(a.X1, b.X1) - max(a.X0, b.X0) }
func yOverlap(a, b document.BBox) float64 { return min(a.Y1, b.Y1) - max(a.Y0, b.Y0) }

func horizontal(l *Line) bool { return l.Dir[0] > 0.9 && math.Abs(l.Dir[1]) < 0.2 }

// mergeRowLines joins lines MuPDF split on one baseline (a gap, a bullet
// drawn apart from its text) when they are close.
func mergeRowLines(lines []Line) []Line {
	out := make([]Line, 0, len(lines))
	for _, l := range lines {
		if n := len(out); n > 0 {
			a := &out[n-1]
			h := min(height(a.BBox), height(l.BBox))
			sz := max(a.FontSize, l.FontSize)
			gap := l.BBox.X0 - a.BBox.X1
			sameRow := horizontal(a) && horizontal(&l) && yOverlap(a.BBox, l.BBox) > 0.5*h &&
				math.Abs(a.BBox.Y1-l.BBox.Y1) < 0.5*h
			maxGap := 1.2 * sz
			if isBulletOnly(a.Text) {
				maxGap = 4 * sz
			}
			if sameRow && gap > -0.5*sz && gap < maxGap {
				a.Text = a.Text + " " + l.Text
				a.BBox = union(a.BBox, l.BBox)
				a.RealChars += l.RealChars
				a.BadChars += l.BadChars
				a.Words = append(a.Words, l.Words...)
				a.Chars = append(a.Chars, l.Chars...)
				if l.RealChars > a.RealChars-l.RealChars {
					a.FontSize, a.Bold, a.Font = l.FontSize, l.Bold, l.Font
				}
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

func endsSentence(s string) bool {
	s = strings.TrimRight(s, " ")
	if s == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".!?:;)\"”’", r)
}

// splitParas cuts one MuPDF block's lines into paragraphs.
func splitParas(lines []Line) [][]Line {
	lines = mergeRowLines(lines)
	if len(lines) == 0 {
		return nil
	}
	// typical left edge and right edge of the block
	maxX1 := 0.0
	x0s := make([]float64, 0, len(lines))
	var gaps []float64
	for i, l := range lines {
		maxX1 = max(maxX1, l.BBox.X1)
		x0s = append(x0s, l.BBox.X0)
		if i > 0 {
			gaps = append(gaps, l.BBox.Y0-lines[i-1].BBox.Y1)
		}
	}
	sort.Float64s(x0s)
	left := x0s[len(x0s)/4]
	medGap := 0.0
	if len(gaps) >= 2 {
		sort.Float64s(gaps)
		medGap = gaps[len(gaps)/2]
	}
	// the paragraphs are runs of lines (mergeRowLines' own array; capped:
	// appending to one copies it)
	out := make([][]Line, 0, len(lines)) // at most a paragraph a line: one allocation
	start := 0
	curList := isListStart(lines[0].Text)
	minX0 := x0s[0]
	blockW := maxX1 - minX0
	for i := 1; i < len(lines); i++ {
		a, b := &lines[i-1], &lines[i]
		h := max(1, min(height(a.BBox), height(b.BBox)))
		sz := max(1, max(a.FontSize, b.FontSize))
		gap := b.BBox.Y0 - a.BBox.Y1
		split := false
		hanging := curList && b.BBox.X0 >= lines[start].BBox.X0+0.5*sz && !isListStart(b.Text)
		switch {
		case !horizontal(a) || !horizontal(b):
			split = !(yOverlap(a.BBox, b.BBox) > 0 && xOverlap(a.BBox, b.BBox) > 0)
		case b.BBox.Y0 < a.BBox.Y0+0.5*h: // beside or above: not the next line down
			split = true
		case xOverlap(a.BBox, b.BBox) <= 0:
			split = true
		case gap > max(0.8*h, medGap+0.5*h):
			split = true
		case math.Abs(a.FontSize-b.FontSize) > 0.15*sz:
			split = true
		case a.Bold != b.Bold && (isShort(a, maxX1, blockW) || b.Bold):
			split = true
		case isListStart(b.Text):
			split = true
		case hanging:
			// continuation of a list item under its text, not its bullet
		case endsSentence(a.Text) && isShort(a, maxX1, blockW) && len(lines) >= 3:
			split = true
		case endsSentence(a.Text) && b.BBox.X0 > left+0.8*sz && b.BBox.X0-left < 4*sz && a.BBox.X0 < left+0.8*sz:
			split = true // first-line indent of a new paragraph
		}
		if split {
			out = append(out, lines[start:i:i])
			start = i
			curList = isListStart(b.Text)
		}
	}
	return append(out, lines[start:len(lines):len(lines)])
}

func isShort(l *Line, maxX1, blockW float64) bool {
	return blockW > 0 && l.BBox.X1 < maxX1-0.15*blockW
}

// newPara builds a paragraph from lines: joined text, box, dominant size.
func newPara(lines []Line, seq int) *para {
	p := &para{lines: lines, seq: seq, tableSeq: -1}
	// the lines' texts joined: one line's text as it is (no copy), or
	// joined in one array sized for them all, which its text then views
	// (nothing writes to it after)
	var buf []byte
	if len(lines) > 1 {
		n := 0
		for _, l := range lines {
			n += len(l.Text) + 1
		}
		buf = make([]byte, 0, n)
	}
	sizes := map[float64]int{}
	bold := 0
	for i, l := range lines {
		p.bbox = union(p.bbox, l.BBox)
		t := strings.TrimSpace(l.Text)
		if len(lines) == 1 {
			p.text = t
		} else {
			if i > 0 && len(buf) > 0 && t != "" {
				r, _ := utf8.DecodeLastRune(buf)
				next, _ := utf8.DecodeRuneInString(t)
				if r == '-' && len(buf) > 1 {
					r2, _ := utf8.DecodeLastRune(buf[:len(buf)-1])
					switch {
					case unicode.IsLetter(r2) && unicode.IsLower(next):
						// a word broken at the line end: "ef-" + "ficient"
						buf = buf[:len(buf)-1]
					case !unicode.IsLetter(r2):
						buf = append(buf, ' ')
					}
				} else {
					buf = append(buf, ' ')
				}
			}
			buf = append(buf, t...)
		}
		n := l.RealChars
		p.nchars += n
		sizes[math.Round(l.FontSize*2)/2] += n
		if l.Bold {
			bold += n
		}
	}
	if len(buf) > 0 {
		p.text = unsafe.String(&buf[0], len(buf))
	}
	best := -1
	for s, n := range sizes {
		if n > best || (n == best && s > p.size) {
			p.size, best = s, n
		}
	}
	p.bold = p.nchars > 0 && bold*5 >= p.nchars*4
	return p
}

// pageParas turns a Layout into paragraphs and image units.
func pageParas(lay *Layout) []*para {
	var out []*para
	seq := 0
	for _, b := range lay.Blocks {
		if b.Image {
			if width(b.BBox) < 16 || height(b.BBox) < 16 {
				continue // rules, dots, spacer images
			}
			out = append(out, &para{bbox: b.BBox, image: true, seq: seq, cat: document.ImageCat, tableSeq: -1})
			seq++
			continue
		}
		for _, ls := range splitParas(b.Lines) {
			if n := len(out); n > 0 && continues(out[n-1], ls) {
				prev := out[n-1]
				*prev = *newPara(append(append([]Line(nil), prev.lines...), ls...), prev.seq)
				continue
			}
			p := newPara(ls, seq)
			if strings.TrimSpace(p.text) == "" {
				continue
			}
			out = append(out, p)
			seq++
		}
	}
	return out
}

// continues: MuPDF started a new block, but the text goes on — the next
// line down, same size and weight, the previous text not ending a sentence.
func continues(a *para, ls []Line) bool {
	if a.image || len(a.lines) == 0 || len(ls) == 0 {
		return false
	}
	l, b := &a.lines[len(a.lines)-1], &ls[0]
	if !horizontal(l) || !horizontal(b) || endsSentence(l.Text) || isListStart(b.Text) {
		return false
	}
	h := max(1, min(height(l.BBox), height(b.BBox)))
	gap := b.BBox.Y0 - l.BBox.Y1
	sz := max(l.FontSize, b.FontSize)
	return gap > -0.4*h && gap < 0.5*h && b.BBox.Y0 > l.BBox.Y0+0.5*h &&
		xOverlap(l.BBox, b.BBox) > 0.5*min(width(l.BBox), width(b.BBox)) &&
		math.Abs(l.FontSize-b.FontSize) <= 0.15*sz && l.Bold == b.Bold
}
