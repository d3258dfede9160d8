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

// line_areas runs Tesseract's layout analysis on the image set in api
// (recognition reuses it) and sums the areas of the text lines lying
// across the page (wider than tall) and running down it.
static void line_areas(TessBaseAPI *api, double *across, double *down) {
	*across = *down = 0;
	TessPageIterator *it = dk_TessBaseAPIAnalyseLayout(api);
	if (it == NULL) return;
	do {
		int x0, y0, x1, y1;
		if (dk_TessPageIteratorBoundingBox(it, RIL_TEXTLINE, &x0, &y0, &x1, &y1)) {
			double a = (double)(x1 - x0) * (y1 - y0);
			if (y1 - y0 > x1 - x0) *down += a; else *across += a;
		}
	} while (dk_TessPageIteratorNext(it, RIL_TEXTLINE));
	dk_TessPageIteratorDelete(it);
}
*/
import "C"

import (
	"errors"
	"math"
	"unicode"

	"github.com/docket-dev/docket/loader/internal/document"
)

// Orientation and script detection runs only when the page's first
// reading says it may be needed (readOriented): OSD cost 0.3 to 0.8 CPU
// seconds on each corpus scan, a quarter to a third of its recognition.
// The page is read as it comes, after a layout check:
//
//   - Tesseract's layout analysis (which recognition then reuses) finds
//     the text lines. When lines running down the page cover more than
//     sidewaysShare of the lines' area, the page lies on its side: it is
//     not recognised (read sideways, Tesseract takes every line for
//     vertical text; corpus p07 cost 24 s so instead of 4 s upright) and
//     OSD decides which way to turn it. On the corpus scans this share
//     was at most 0.06 upright or upside down and at least 0.94 sideways.
//   - Otherwise the page is recognised, and the reading is kept without
//     OSD when it looks like upright text in the engine's languages
//     (readsUpright). Upside down, a page reads as low-confidence
//     fragments; in a script the languages do not read, as few dictionary
//     words. Then OSD runs, the page is turned and read again, or flagged
//     as unreadable, as before.
const (
	sidewaysShare = 0.5
	// uprightShare: at least this share of the letters and digits read
	// must be in confident words lying along the lines (trialScore).
	// Tuned on the even corpus scans (p00..p10): upright 0.37 (p00) to
	// 0.94, upside down 0.03 to 0.14.
	uprightShare = 0.25
	// uprightDict: of the words of three letters or more, at least this
	// share must be dictionary words, when there are uprightMinLong of
	// them (upright even scans: 0.48 to 0.99).
	uprightDict    = 0.3
	uprightMinLong = 20
)

// dictCount counts the words of three letters or more a reading holds and
// those of them Tesseract found in its dictionaries.
type dictCount struct{ long, dict int }

func (d *dictCount) add(text string, inDict bool) {
	n := 0
	for _, r := range text {
		if unicode.IsLetter(r) {
			n++
		}
	}
	if n >= 3 {
		d.long++
		if inDict {
			d.dict++
		}
	}
}

// readsUpright reports whether a page's first reading looks like upright
// text in the engine's languages, so that OSD is not needed. A reading
// without letters or digits (a blank page) counts as upright: OSD needs
// text too.
func readsUpright(words []document.OCRWord, dc dictCount) bool {
	var all float64
	for _, w := range words {
		all += float64(alnum(w.Text))
	}
	if all == 0 {
		return true
	}
	if trialScore(words) < uprightShare*all {
		return false
	}
	return dc.long < uprightMinLong || float64(dc.dict) >= uprightDict*float64(dc.long)
}

// lineAreas sums the areas of the text lines Tesseract's layout analysis
// finds on the image set in the engine, lying across and running down
// the page. The caller holds the engine's lock.
func (e *Engine) lineAreas() (across, down float64) {
	var a, d C.double
	C.line_areas(e.api, &a, &d)
	return float64(a), float64(d)
}

// readOriented reads src the right way up (see sidewaysShare): the first
// reading is kept when it looks upright; otherwise OSD (and, when OSD is
// unsure, trial readings) decide whether to turn the page and read it
// again, or to flag a script the languages do not read (info.unreadable,
// and no page). The caller holds the engine's lock.
func (e *Engine) readOriented(src *C.PIX, dpi int, info *recogInfo) (page, error) {
	pg, err := e.readPage(src, dpi, true)
	if err != nil || !pg.sideways && readsUpright(pg.words, pg.dict) {
		return pg, err
	}
	info.osd = e.detectOS(src)
	foreign := info.osd.ok && info.osd.scriptConf >= minScriptConf && !readsScript(e.loaded, info.osd.script)
	q := 0
	if info.osd.ok && info.osd.conf >= minOrientConf {
		q = (4 - info.osd.deg/90) % 4
	}
	if info.osd.ok && info.osd.conf < minOrientConf {
		// OSD unsure of the orientation, so of the script too: the
		// trials decide.
		tq, score := e.trialOrientation(src, int(C.dk_pixGetWidth(src)), int(C.dk_pixGetHeight(src)), dpi, (4-info.osd.deg/90)%4)
		foreign = foreign && score < trialMinScore
		info.trial = true
		q = tq
	}
	if foreign {
		pg.release()
		info.unreadable = true
		return page{}, nil
	}
	if q == 0 && !pg.sideways {
		return pg, nil // upright after all: the first reading stands
	}
	pg.release()
	if q == 0 {
		return e.readPage(src, dpi, false)
	}
	t := turnPix(src, q)
	if t == nil {
		return page{}, errors.New("ocr: cannot turn the page")
	}
	info.rotated = q * 90
	pg, err = e.readPage(t, dpi, false)
	if pg.img != nil && !pg.owned {
		pg.owned = true // the page read is t itself
	} else {
		C.free_pix(t)
	}
	return pg, err
}

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

// alnum counts the letters and digits of s.
func alnum(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

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
		n := alnum(w.Text)
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
			words, _ := e.readWords(0, 0, 1)
			scores[q] = trialScore(words)
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
