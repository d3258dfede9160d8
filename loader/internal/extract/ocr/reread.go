package ocr

/*
#include <stdlib.h>
#include "dl.h"

// crop returns the part of pix inside the box, scaled by scale and with a
// white border of border pixels (after scaling), or NULL. A crop whose
// mean grey is under 128 (light text on a dark ground) is inverted first.
static PIX *crop(PIX *pix, int x, int y, int w, int h, float scale, int border) {
	BOX *b = dk_boxCreate(x, y, w, h);
	if (b == NULL) return NULL;
	PIX *c = dk_pixClipRectangle(pix, b, NULL);
	dk_boxDestroy(&b);
	if (c == NULL) return NULL;
	if (dk_pixGetDepth(c) == 8) {
		int cw = dk_pixGetWidth(c), ch = dk_pixGetHeight(c), wpl = dk_pixGetWpl(c);
		l_uint32 *data = dk_pixGetData(c);
		double sum = 0;
		for (int yy = 0; yy < ch; yy++) {
			l_uint32 *line = data + yy * wpl;
			for (int xx = 0; xx < cw; xx++) sum += GET_DATA_BYTE(line, xx);
		}
		if (sum < 128.0 * cw * ch) dk_pixInvert(c, c);
	}
	if (scale != 1.0f) {
		PIX *s = dk_pixScale(c, scale, scale);
		dk_pixDestroy(&c);
		if (s == NULL) return NULL;
		c = s;
	}
	if (border > 0) {
		PIX *bd = dk_pixAddBorder(c, border, 0xff);
		dk_pixDestroy(&c);
		c = bd;
	}
	return c;
}

static void free_crop(PIX *p) { dk_pixDestroy(&p); }

// grey_bytes copies an 8 bpp pix into out (w*h bytes).
static void grey_bytes(PIX *p, unsigned char *out) {
	int w = dk_pixGetWidth(p), h = dk_pixGetHeight(p), wpl = dk_pixGetWpl(p);
	l_uint32 *data = dk_pixGetData(p);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) out[(size_t)y * w + x] = GET_DATA_BYTE(data + y * wpl, x);
}

*/
import "C"

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/docket-dev/docket/loader/internal/document"
)

// weakLine is a stretch of a text line of the first reading holding a
// word under the confidence cut (see weakSpans): its words (indices into
// the page's words) and the crop rectangle read again, in the page
// image's pixels.
type weakLine struct {
	all            []int
	x0, y0, x1, y1 int
}

// weakLines returns the stretches of lines of words (in reading order,
// boxes in the pixels of a w×h image) to read again: in each line holding
// a word under minConf, every such word with rereadContext words either
// side, overlapping runs merged (weakSpans). Each gets a crop rectangle
// spanning its words across and the whole line down, with rereadMargin
// around, inside the image. Degenerate crops and vertical lines (taller
// than wide, three characters or more: not lines for single-line reading)
// are left out.
func weakLines(words []document.OCRWord, w, h int, minConf float64) []weakLine {
	var out []weakLine
	for i := 0; i < len(words); {
		j := i
		for j < len(words) && words[j].Line == words[i].Line {
			j++
		}
		line := words[i:j]
		b := line[0].BBox
		x0, y0, x1, y1 := b.X0, b.Y0, b.X1, b.Y1
		chars := 0
		for _, wd := range line {
			b := wd.BBox
			x0, y0, x1, y1 = min(x0, b.X0), min(y0, b.Y0), max(x1, b.X1), max(y1, b.Y1)
			chars += utf8.RuneCountInString(wd.Text)
		}
		first := i
		i = j
		spans := weakSpans(line, minConf)
		if len(spans) == 0 {
			continue
		}
		top, bottom := max(int(y0)-rereadMargin, 0), min(int(y1)+rereadMargin, h)
		if bottom-top > min(int(x1)+rereadMargin, w)-max(int(x0)-rereadMargin, 0) && chars >= 3 {
			continue // vertical text: not a line for PSM 7
		}
		for _, sp := range spans {
			sx0, sx1 := line[sp[0]].BBox.X0, line[sp[0]].BBox.X1
			var all []int
			for k := sp[0]; k <= sp[1]; k++ {
				sx0, sx1 = min(sx0, line[k].BBox.X0), max(sx1, line[k].BBox.X1)
				all = append(all, first+k)
			}
			left, right := max(int(sx0)-rereadMargin, 0), min(int(sx1)+rereadMargin, w)
			// the margin stops halfway to a word of the line left out
			// of the span: a sliver of it would be read as a character
			if sp[0] > 0 {
				left = max(left, int(line[sp[0]-1].BBox.X1+sx0+1)/2)
			}
			if sp[1] < len(line)-1 {
				right = min(right, int(sx1+line[sp[1]+1].BBox.X0)/2)
			}
			ln := weakLine{all: all, x0: left, y0: top, x1: right, y1: bottom}
			if ln.x1-ln.x0 < 2 || ln.y1-ln.y0 < 2 {
				continue
			}
			out = append(out, ln)
		}
	}
	return out
}

// weakSpans returns the runs [a, b] (indices into line, inclusive) of a
// line's words to read again: each word under minConf with rereadContext
// words either side, overlapping or touching runs merged. Reading the
// whole line instead cost about twice the CPU on the tune scans' weak
// lines (long table rows with one weak cell) for no better reading
// (eval-ocr tune F1 0.8386 whole lines, 0.8398 with 2 words of context).
func weakSpans(line []document.OCRWord, minConf float64) [][2]int {
	var out [][2]int
	for k, wd := range line {
		if wd.Confidence >= minConf {
			continue
		}
		a, b := max(k-rereadContext, 0), min(k+rereadContext, len(line)-1)
		if n := len(out); n > 0 && a <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], b)
			continue
		}
		out = append(out, [2]int{a, b})
	}
	return out
}

// rereadLow recognises every weak line (weakLines) a second time, on its
// own crop of img (lineCrop) in single-line mode (PSM 7), and merges the
// new reading into words (mergeLine). It runs after the page's single
// recognition, whose results have been read; the engine is back in
// PSM_AUTO when it returns. Tesseract's own retry of weak lines inverted
// (tessedit_do_invert) stays off: lineCrop turns a light-on-dark line
// dark-on-light before it is read, so each line is read once.
func (e *Engine) rereadLow(img *C.PIX, w, h int, words []document.OCRWord, dpi int, minConf float64) []document.OCRWord {
	lines := weakLines(words, w, h, minConf)
	if len(lines) == 0 {
		return words
	}
	C.dk_TessBaseAPISetPageSegMode(e.api, C.PSM_SINGLE_LINE)
	defer C.dk_TessBaseAPISetPageSegMode(e.api, C.PSM_AUTO)
	off := float64(rereadBorder) / rereadScale
	repl := map[int][]document.OCRWord{}
	confirm := map[int]float64{}
	for _, ln := range lines {
		c := lineCrop(img, ln)
		if c == nil {
			continue
		}
		C.dk_TessBaseAPISetImage2(e.api, c)
		if dpi > 0 {
			C.dk_TessBaseAPISetSourceResolution(e.api, C.int(float64(dpi)*rereadScale))
		}
		var nw []document.OCRWord
		if C.dk_TessBaseAPIRecognize(e.api, nil) == 0 {
			nw, _ = e.readWords(float64(ln.x0)-off, float64(ln.y0)-off, rereadScale)
		}
		C.dk_TessBaseAPIClear(e.api)
		C.free_crop(c)
		mergeLine(words, ln.all, nw, minConf, repl, confirm)
	}
	return applyReread(words, repl, confirm)
}

// lineCrop is the image a weak line is read again from: its rectangle of
// img, turned dark-on-light when its mean grey is under the middle
// (a line printed light on dark), scaled by rereadScale and given a white
// border of rereadBorder pixels. nil when out of memory. The caller
// frees it (free_crop).
func lineCrop(img *C.PIX, ln weakLine) *C.PIX {
	return C.crop(img, C.int(ln.x0), C.int(ln.y0), C.int(ln.x1-ln.x0), C.int(ln.y1-ln.y0), C.float(rereadScale), C.int(rereadBorder))
}

// mergeLine matches a weak line's old words (indices all into words) with
// its new reading nw by horizontal overlap; in each group holding a
// low-confidence word, the new reading is taken when its weakest word is
// surer than the old group's weakest (repl), and when both readings spell
// the same characters (maybe split differently) the old words are kept
// with the two confidences combined, 100-(100-a)(100-b)/100 (confirm).
func mergeLine(words []document.OCRWord, all []int, nw []document.OCRWord, minConf float64, repl map[int][]document.OCRWord, confirm map[int]float64) {
	// Components of the overlap graph between the line's old words and
	// the new words.
	no, nn := len(all), len(nw)
	comp := make([]int, no+nn)
	for i := range comp {
		comp[i] = i
	}
	find := func(i int) int {
		for comp[i] != i {
			i = comp[i]
		}
		return i
	}
	for oi, i := range all {
		ob := words[i].BBox
		for ni, n := range nw {
			ov := min(n.BBox.X1, ob.X1) - max(n.BBox.X0, ob.X0)
			if ov > 0.5*min(n.BBox.X1-n.BBox.X0, ob.X1-ob.X0) {
				comp[find(oi)] = find(no + ni)
			}
		}
	}
	groups := map[int][2][]int{}
	for k := 0; k < no+nn; k++ {
		g := groups[find(k)]
		if k < no {
			g[0] = append(g[0], all[k])
		} else {
			g[1] = append(g[1], k-no)
		}
		groups[find(k)] = g
	}
	for _, g := range groups {
		olds, news := g[0], g[1]
		if len(olds) == 0 || len(news) == 0 {
			continue
		}
		oldMin := words[olds[0]].Confidence
		for _, i := range olds {
			oldMin = min(oldMin, words[i].Confidence)
		}
		if oldMin >= minConf {
			continue
		}
		newMin := nw[news[0]].Confidence
		for _, ni := range news {
			newMin = min(newMin, nw[ni].Confidence)
		}
		var ot, nt strings.Builder
		for _, i := range olds {
			ot.WriteString(words[i].Text)
		}
		for _, ni := range news {
			nt.WriteString(nw[ni].Text)
		}
		if ot.String() == nt.String() {
			// Both readings agree: keep the first segmentation and
			// combine the two confidences as independent evidence
			// (100 - product of the doubts).
			for _, i := range olds {
				c := 100 - (100-max(newMin, 0))*(100-max(words[i].Confidence, 0))/100
				if c > words[i].Confidence {
					confirm[i] = c
				}
			}
			continue
		}
		if newMin <= oldMin {
			continue
		}
		old := words[olds[0]]
		var got []document.OCRWord
		for _, ni := range news {
			n := nw[ni]
			n.Block, n.Paragraph, n.Line, n.Page = old.Block, old.Paragraph, old.Line, old.Page
			got = append(got, n)
		}
		slices.SortFunc(got, func(a, b document.OCRWord) int { return cmp.Compare(a.Seq, b.Seq) })
		slices.Sort(olds)
		repl[olds[0]] = got
		for _, i := range olds[1:] {
			repl[i] = nil
		}
	}
}

// greyBytes returns the pixels of an 8 bpp pix, rows w bytes apart.
func greyBytes(p *C.PIX) ([]byte, int, int) {
	w, h := int(C.dk_pixGetWidth(p)), int(C.dk_pixGetHeight(p))
	out := make([]byte, w*h)
	if len(out) > 0 {
		C.grey_bytes(p, (*C.uchar)(unsafe.Pointer(&out[0])))
	}
	return out, w, h
}
