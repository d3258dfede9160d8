package pdf

/*
#include <stdlib.h>
#include "walk.h"
*/
import "C"

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/docket-dev/docket/loader/internal/document"
)

// Detail is how much of each line Doc.Page returns.
type Detail int

const (
	// Lines: line text, boxes, dominant font and size.
	Lines Detail = iota
	// Words: Lines plus Line.Words (what table detection works on).
	Words
	// Chars: Words plus Line.Chars, one entry per character.
	Chars
)

// rtlLine returns a line's characters for the RTL rebuild (see rtl.go)
// and their logical order, or a nil order when the line holds no RTL
// letter.
func rtlLine(cs []C.dk_char, ox, oy float64, fontBold []bool) ([]rtlChar, []int) {
	rc := make([]rtlChar, len(cs))
	for i := range cs {
		c := &cs[i]
		r := walkRune(rune(c.c))
		rc[i] = rtlChar{r: r, box: bbox(float64(c.x0)-ox, float64(c.y0)-oy, float64(c.x1)-ox, float64(c.y1)-oy), size: float64(c.size),
			bold: c.font >= 0 && int(c.font) < len(fontBold) && fontBold[c.font]}
	}
	return rc, logicalOrder(rc)
}

// walkRune is the character the walk keeps for code point r: control
// characters, DEL and what is no code point are a space.
func walkRune(r rune) rune {
	if r < 0x20 || r == 0x7f || !utf8.ValidRune(r) {
		return ' '
	}
	return r
}

// walkSpace is unicode.IsSpace(r) for a walkRune r, ASCII told without
// calling it (r is printable or ' '): that out-of-line call, once or
// twice a character, spilled the page walk's loop values each time.
func walkSpace(r rune) bool {
	return r == ' ' || r >= utf8.RuneSelf && unicode.IsSpace(r)
}

// Page walks page n (1-based) into a Layout with the given detail.
func (d *Doc) Page(n int, detail Detail) (*Layout, error) {
	return d.PageWith(n, detail, false)
}

// PageWith is Page that also collects the page's straight vector paths
// into Layout.Vectors when vectors is set (table rules; costs a little).
func (d *Doc) PageWith(n int, detail Detail, vectors bool) (*Layout, error) {
	return d.page(n, detail, vectors, false)
}

// PageDecoded is PageWith with the page's JPEG 2000 images decoded as
// MuPDF loads them (Layout.LazyImages 0): an image that cannot be decoded
// has no block and the page's messages say why, as before images.c.
func (d *Doc) PageDecoded(n int, detail Detail, vectors bool) (*Layout, error) {
	return d.page(n, detail, vectors, true)
}

func (d *Doc) page(n int, detail Detail, vectors, decode bool) (*Layout, error) {
	if n < 1 || n > d.pages {
		return nil, fmt.Errorf("page %d out of range 1..%d", n, d.pages)
	}
	p := d.p
	cvec := C.int(0)
	if vectors {
		cvec = 1
	}
	p.cookie = C.fz_cookie{}
	p.decode_images = 0
	if decode {
		p.decode_images = 1
	}
	stop := watchTokens(&p.cookie, d.MaxTokens)
	rc := loadPage(d.d, C.int(n-1), C.int(pageFlags), cvec, C.size_t(bytesPerToken*d.MaxTokens), p)
	stop()
	defer C.dk_page_release(d.d, p)
	lay := &Layout{
		Number:     n,
		Width:      float64(p.px1 - p.px0),
		Height:     float64(p.py1 - p.py0),
		Tokens:     int(p.cookie.progress),
		LazyImages: int(p.lazy_images),
		ClipHidden: int(p.clip_hidden),
	}
	if p.content_over != 0 {
		return lay, fmt.Errorf("page %d: its content streams inflate to more than %.1f MB (%d bytes a token of loader.max_page_tokens; a content-stream bomb?) and were not read", n, float64(bytesPerToken*d.MaxTokens)/1e6, bytesPerToken)
	}
	if d.MaxTokens > 0 && int(p.cookie.progress) > d.MaxTokens {
		// Whether or not the watcher stopped it in time: the verdict
		// depends on the count alone, so the same bytes land the same.
		return lay, fmt.Errorf("page %d: its content is over %d tokens (loader.max_page_tokens; a content-stream bomb?) and was not read", n, d.MaxTokens)
	}
	if rc != 0 {
		return lay, fmt.Errorf("page %d: %s", n, C.GoString(&p.err[0]))
	}
	ox, oy := float64(p.px0), float64(p.py0)
	fonts := unsafe.Slice(p.fonts, int(p.nfonts))
	lay.Fonts = make([]Font, len(fonts))
	for i, f := range fonts {
		name := C.GoString(C.dk_font_name(d.d, f))
		fl := C.dk_font_flags(d.d, f)
		lay.Fonts[i] = Font{Name: name, Bold: fl&1 != 0 || boldName(name), Italic: fl&2 != 0, Mono: fl&4 != 0}
	}
	cchars, clines := unshape(unsafe.Slice(p.chars, int(p.nchars)), unsafe.Slice(p.lines, int(p.nlines)))
	cblocks := unsafe.Slice(p.blocks, int(p.nblocks))
	lay.Blocks = make([]Block, 0, len(cblocks))
	lines := d.scratch.lineArray(len(clines))
	var chs []Char // one array for the page, sliced per line
	if detail >= Chars {
		chs = make([]Char, len(cchars))
	}
	// Words of the whole page in one array; lineWords[i] is line i's range
	// (set once the array stops growing).
	var words []Word
	var lineWords [][2]int
	if detail >= Words {
		words = d.scratch.wordArray(len(cchars)/5 + 1)
		lineWords = make([][2]int, len(clines))
	}
	fontBold := make([]bool, len(lay.Fonts))
	for i, f := range lay.Fonts {
		fontBold[i] = f.Bold
	}
	var buf []byte // the line's text, reused line after line
	// the lines' texts, one after the other: each line's Text is a view
	// of its bytes, which are only appended to, never written again (one
	// allocation a page, not a string a line)
	texts := make([]byte, 0, len(cchars)+len(clines))
	var sizeW [8]struct {
		size float64
		n    int
	}
	for li, cl := range clines {
		ln := &lines[li]
		ln.BBox = bbox(float64(cl.x0)-ox, float64(cl.y0)-oy, float64(cl.x1)-ox, float64(cl.y1)-oy)
		ln.Dir = [2]float64{float64(cl.dx), float64(cl.dy)}
		cs := cchars[cl.first : cl.first+cl.n]
		if chs != nil {
			ln.Chars = chs[cl.first : cl.first+cl.n : cl.first+cl.n]
		}
		buf = buf[:0]
		ns, bold, vis := 0, 0, 0
		fontN := map[int]int(nil)
		lastFont, lastFontN := -1, 0
		// the word being built: index in words (-1: none), its start in
		// the line's text, its visible and bold characters, the right edge
		// of its last character
		cur, curStart, wVis, wBold, prevX1 := -1, 0, 0, 0, 0.0
		hasRTL := false
		endWord := func(end int) {
			if cur >= 0 {
				w := &words[cur]
				w.start, w.end = curStart, end
				w.Bold = wVis > 0 && wBold*2 > wVis
			}
			cur = -1
		}
		if words != nil {
			lineWords[li][0] = len(words)
		}
		for i := range cs {
			c := &cs[i]
			r := walkRune(rune(c.c))
			space := walkSpace(r)
			if r >= 0x0590 && !hasRTL && mayBeRTL(r) {
				hasRTL = true
			}
			switch {
			case r == utf8.RuneError:
				ln.BadChars++
			case !space: // document.IsRealChar(r)
				ln.RealChars++
			}
			at := len(buf)
			if r < utf8.RuneSelf {
				buf = append(buf, byte(r))
			} else {
				buf = utf8.AppendRune(buf, r)
			}
			isBold := c.font >= 0 && int(c.font) < len(fontBold) && fontBold[c.font]
			if r != ' ' {
				vis++
				if isBold {
					bold++
				}
				sz := float64(c.size)
				j := 0
				for ; j < ns; j++ {
					if sizeW[j].size == sz {
						sizeW[j].n++
						break
					}
				}
				if j == ns && ns < len(sizeW) {
					sizeW[ns] = struct {
						size float64
						n    int
					}{sz, 1}
					ns++
				}
				f := int(c.font)
				if f == lastFont {
					lastFontN++
				} else {
					if lastFont >= 0 {
						if fontN == nil {
							fontN = map[int]int{}
						}
						fontN[lastFont] += lastFontN
					}
					lastFont, lastFontN = f, 1
				}
			}
			var box document.BBox // the character's, when words or chars want it
			if words != nil || chs != nil {
				box = bbox(float64(c.x0)-ox, float64(c.y0)-oy, float64(c.x1)-ox, float64(c.y1)-oy)
			}
			if words != nil {
				// A word is a run of characters without a space, an empty
				// box or a gap wider than 0.3 of the font size (or a jump
				// back of half of it).
				x0, y0, x1, y1 := box.X0, box.Y0, box.X1, box.Y1
				if space || x1-x0 <= 0 && y1-y0 <= 0 {
					endWord(at)
				} else {
					sz := float64(c.size)
					if sz <= 0 {
						sz = y1 - y0
					}
					if cur >= 0 && (x0-prevX1 > 0.3*sz || x0 < prevX1-0.5*sz) {
						endWord(at)
					}
					if cur < 0 {
						words = append(words, Word{BBox: box, Size: sz})
						cur, curStart, wVis, wBold = len(words)-1, at, 0, 0
					} else {
						w := &words[cur]
						w.BBox = w.BBox.Union(box)
						w.Size = max(w.Size, sz)
					}
					wVis++
					if isBold {
						wBold++
					}
					prevX1 = x1
				}
			}
			if chs != nil {
				ln.Chars[i] = Char{
					Rune:    r,
					BBox:    box,
					OriginX: float64(c.ox) - ox, OriginY: float64(c.oy) - oy,
					Size: float64(c.size), Font: int(c.font),
				}
			}
		}
		if t := bytes.TrimRight(buf, " "); len(t) > 0 {
			at := len(texts)
			texts = append(texts, t...)
			ln.Text = unsafe.String(&texts[at], len(t))
		}
		if words != nil {
			endWord(len(buf))
			lineWords[li][1] = len(words)
			for k := lineWords[li][0]; k < len(words); k++ {
				words[k].Text = ln.Text[words[k].start:words[k].end]
			}
		}
		if hasRTL && ln.Dir[0] > 0.9 {
			if rc, order := rtlLine(cs, ox, oy, fontBold); order != nil {
				var lw []Word
				ln.Text, lw = rtlText(rc, order)
				if words != nil {
					words = append(words[:lineWords[li][0]], lw...)
					lineWords[li][1] = len(words)
				}
				if chs != nil {
					perm := make([]Char, len(order))
					for k, i := range order {
						perm[k] = ln.Chars[i]
					}
					copy(ln.Chars, perm)
				}
			}
		}
		best := 0
		for j := 1; j < ns; j++ {
			if sizeW[j].n > sizeW[best].n {
				best = j
			}
		}
		if ns > 0 {
			ln.FontSize = sizeW[best].size
		}
		ln.Bold = vis > 0 && bold*2 > vis
		ln.Font = lastFont
		if fontN != nil {
			fontN[lastFont] += lastFontN
			bn := -1
			for f, k := range fontN {
				if k > bn || (k == bn && f < ln.Font) {
					ln.Font, bn = f, k
				}
			}
		}
		lay.RealChars += ln.RealChars
		lay.BadChars += ln.BadChars
	}
	for li, r := range lineWords {
		lines[li].Words = words[r[0]:r[1]:r[1]]
	}
	d.scratch.keepWords(words)
	if vectors && p.nvecs > 0 {
		cv := unsafe.Slice(p.vecs, int(p.nvecs))
		lay.Vectors = make([]Vector, len(cv))
		for i, v := range cv {
			lay.Vectors[i] = Vector{
				BBox: bbox(float64(v.x0)-ox, float64(v.y0)-oy, float64(v.x1)-ox, float64(v.y1)-oy),
				Fill: v.fill == 1, Curve: v.fill == 2,
			}
		}
	}
	for _, cb := range cblocks {
		b := Block{
			Image: cb._type != C.FZ_STEXT_BLOCK_TEXT,
			BBox:  bbox(float64(cb.x0)-ox, float64(cb.y0)-oy, float64(cb.x1)-ox, float64(cb.y1)-oy),
		}
		if !b.Image {
			b.Lines = lines[cb.first : cb.first+cb.n : cb.first+cb.n]
		} else {
			b.ImageW, b.ImageH = int(cb.iw), int(cb.ih)
		}
		lay.Blocks = append(lay.Blocks, b)
	}
	return lay, nil
}

// pageScratch is the page-sized arrays PageWith fills, kept from page to
// page: an extraction that is done with a page's Layout before it asks
// for the next (Extractor.extract) allocates them once per document
// instead of once per page (they were ~14 % of a PDF worker's allocated
// bytes, each page's garbage growing the heap the worker touches).
type pageScratch struct {
	lines []Line
	words []Word
}

// reusePages makes every Layout PageWith returns from now on share its
// Line and Word arrays with the next page's: a Layout (its Lines, their
// Words) must not be used after the next PageWith call. Line texts and
// word texts are strings of their own and stay valid.
func (d *Doc) reusePages() { d.scratch = &pageScratch{} }

// lineArray is n zeroed Lines: the scratch's array when reused.
func (s *pageScratch) lineArray(n int) []Line {
	if s == nil {
		return make([]Line, n)
	}
	if cap(s.lines) < n {
		s.lines = make([]Line, n)
	}
	ls := s.lines[:n]
	clear(ls)
	return ls
}

// wordArray is an empty Word slice with room for n: the scratch's array
// when reused (keepWords stores it back once it stopped growing).
func (s *pageScratch) wordArray(n int) []Word {
	if s == nil || cap(s.words) < n {
		return make([]Word, 0, n)
	}
	return s.words[:0]
}

func (s *pageScratch) keepWords(ws []Word) {
	if s != nil && ws != nil {
		s.words = ws
	}
}
