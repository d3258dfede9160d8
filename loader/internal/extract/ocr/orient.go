package ocr

/*
#include "dl.h"

static PIX *clip_turn(PIX *p, int x, int y, int w, int h, int quads) {
	BOX *b = dk_boxCreate(x, y, w, h);
	if (b == NULL) return NULL;
	PIX *c = dk_pixClipRectangle(p, b, NULL);
	dk_boxDestroy(&b);
	if (c == NULL || quads == 0) return c;
	PIX *t = dk_pixRotateOrth(c, quads);
	dk_pixDestroy(&c);
	return t;
}
static void free_pix(PIX *p) { dk_pixDestroy(&p); }
*/
import "C"

import (
	"math"
	"unicode"

	"github.com/docket-dev/docket/loader/internal/document"
)

// Orientation when OSD is unsure. Tesseract's OSD is confident (margins
// of 12 to 41 on the corpus scans, turned or not) on clean pages, but on a
// poor typewriter scan (corpus p10) its margin stays under 1.5 in every
// orientation, it named the wrong end for the page upright and upside
// down, and it took the page turned sideways for Arabic script. When the
// margin is under minOrientConf, the engine reads a trial crop of the page
// turned the ways OSD hesitates between (trialOrientation) and keeps the
// one whose words carry the most confident characters (trialScore),
// turning the page only when that orientation clearly beats the others
// read (trialWin). The crop is the middle trialFrac of each side (9 % of
// the page); two trials cost about a third of the page's recognition on
// p10 (a crop half the page's sides: as much as the page itself, for the
// same decision), and only pages OSD could not decide pay it.
const (
	trialFrac    = 0.3
	trialMinSide = 800 // pixels: a smaller page's crop holds too few words
	// trialWin: the best orientation must score this many times any
	// other read.
	trialWin = 1.5
	// trialMinScore: below this many confident characters in every
	// orientation the trials say nothing (a page without text, or a
	// script the languages do not read).
	trialMinScore = 20
)

// trialScore is the number of letters and digits in words of at least
// two of them, wider than tall, read with confidence ≥ 60, weighted by
// confidence/100: a page read the wrong way up yields few such words,
// and those unsure.
func trialScore(words []document.OCRWord) float64 {
	var s float64
	for _, w := range words {
		if w.Confidence < 60 {
			continue
		}
		n := 0
		for _, r := range w.Text {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				n++
			}
		}
		// Tesseract also reads lines it finds running down the page
		// (vertical text), so a page turned a quarter reads nearly as well
		// as upright: only words lying along the lines count.
		if n >= 2 && w.BBox.X1-w.BBox.X0 > w.BBox.Y1-w.BBox.Y0 {
			s += float64(n) * w.Confidence / 100
		}
	}
	return s
}

// trialOrientation reads the middle of img (w×h) turned by quarter turns
// and returns the number of clockwise quarter turns that reads best (0
// when no turn wins clearly) and the best score. OSD names the axis of the
// lines well even when unsure which way up they are (on p10 it named the
// right axis in all four orientations, and the wrong end in two): the
// turn it proposes (first) and the opposite one are read first, the
// other two only when neither reads. The engine's lock is held by the
// caller.
func (e *Engine) trialOrientation(img *C.PIX, w, h, dpi, first int) (int, float64) {
	cw, ch := min(w, max(int(float64(w)*trialFrac), trialMinSide)), min(h, max(int(float64(h)*trialFrac), trialMinSide))
	if cw < 16 || ch < 16 {
		return 0, 0
	}
	x, y := (w-cw)/2, (h-ch)/2
	scores := [4]float64{-1, -1, -1, -1}
	read := func(q int) {
		c := C.clip_turn(img, C.int(x), C.int(y), C.int(cw), C.int(ch), C.int(q))
		if c == nil {
			scores[q] = 0
			return
		}
		C.dk_TessBaseAPISetImage2(e.api, c)
		if dpi > 0 {
			C.dk_TessBaseAPISetSourceResolution(e.api, C.int(dpi))
		}
		scores[q] = 0
		if C.dk_TessBaseAPIRecognize(e.api, nil) == 0 {
			scores[q] = trialScore(e.readWords(0, 0, 1))
		}
		C.dk_TessBaseAPIClear(e.api)
		C.free_pix(c)
	}
	// Crops cut through glyphs and read upside down make leptonica, inside
	// Tesseract, print errors ("box outside rectangle") it recovers from:
	// kept off the worker's stderr for the trials only.
	C.dk_setMsgSeverity(C.L_SEVERITY_NONE)
	defer C.dk_setMsgSeverity(C.L_SEVERITY_ERROR)
	first = (first%4 + 4) % 4
	read(first)
	read((first + 2) % 4)
	if max(scores[first], scores[(first+2)%4]) < trialMinScore {
		read((first + 1) % 4)
		read((first + 3) % 4)
	}
	best, second := 0, -1.0
	for q := 1; q < 4; q++ {
		if scores[q] > scores[best] {
			best = q
		}
	}
	for q := 0; q < 4; q++ {
		if q != best {
			second = max(second, scores[q])
		}
	}
	if scores[best] < trialMinScore || scores[best] < trialWin*second {
		return 0, max(scores[best], 0)
	}
	return best, scores[best]
}

// mapBack maps words' boxes from the pixels of the image recognition saw
// back to the image the caller gave: that image (w×h) was turned
// clockwise by quads quarter turns, then deskewed by angle degrees about
// its centre (leptonica turns clockwise for a positive angle, keeping the
// size). Each box becomes the bounding box of its mapped corners.
func mapBack(words []document.OCRWord, w, h, quads int, angle float64) {
	tw, th := float64(w), float64(h)
	if quads%2 == 1 {
		tw, th = th, tw
	}
	s, c := math.Sincos(-angle * math.Pi / 180)
	cx, cy := tw/2, th/2
	pt := func(x, y float64) (float64, float64) {
		if angle != 0 { // undo the deskew: turn back by -angle
			dx, dy := x-cx, y-cy
			x, y = c*dx-s*dy+cx, s*dx+c*dy+cy
		}
		switch quads % 4 { // undo the quarter turns
		case 1:
			return y, float64(h) - x
		case 2:
			return float64(w) - x, float64(h) - y
		case 3:
			return float64(w) - y, x
		}
		return x, y
	}
	if quads%4 == 0 && angle == 0 {
		return
	}
	for i := range words {
		b := words[i].BBox
		x0, y0 := math.Inf(1), math.Inf(1)
		x1, y1 := math.Inf(-1), math.Inf(-1)
		for _, p := range [4][2]float64{{b.X0, b.Y0}, {b.X1, b.Y0}, {b.X0, b.Y1}, {b.X1, b.Y1}} {
			x, y := pt(p[0], p[1])
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		}
		words[i].BBox = document.BBox{X0: x0, Y0: y0, X1: x1, Y1: y1}
	}
}

// destroyPix frees a Pix made by newPix or turnPix.
func destroyPix(p *C.PIX) { C.free_pix(p) }
