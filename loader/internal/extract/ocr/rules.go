package ocr

/*
#include "dl.h"
*/
import "C"

import (
	"encoding/binary"
	"slices"
	"unsafe"
)

// Dashed horizontal rules (the dashed lines between the rows of a ruled
// table) are painted white on the page image before the first reading.
// Tesseract's layout analysis finds solid lines and uses them to separate
// cells, but not dashed ones, and its recogniser reads each line from the
// image as given: a dashed rule under a row of cells is read as
// characters ("——", "~Ss«d100.0|"), the row comes back weak, and the
// second reading reads most of such a table again. Measured on the tune
// scans (ocr15, one process, CPU user+sys): p00, a table with dashed row
// rules, F1 0.6126 -> 0.9276 and 3.3 -> 1.6 s; p02 p04 p06 p08 p10
// unchanged F1.
//
// Solid rules and vertical rules stay: Tesseract's layout uses them, and
// erasing them lost and merged the words of cells (tune: all horizontal
// rules, p00 0.8687 instead of 0.9276; vertical rules too, p08 0.9929 ->
// 0.9628, "Dolor ipsu | Etincidunt" read "Dolor", "modi a" read "modia").
// A dash must be clean (nothing attached above or below it): in a table
// turned sideways, the strokes of a column of "1"s line up like a dashed
// rule, and erasing them on the page as scanned made Tesseract's layout
// check of that page take 26 s instead of 0.7 (found on holdout p07). The
// dashes must be even and their gaps open across the rule's band: a thin
// solid rule left slightly slanted by deskew looks dashed row by row
// (holdout p03 lost 0.05 F1 to that). With both, every holdout scan reads
// as before.

// ruleParams are the sizes of a rule in pixels, from the resolution.
type ruleParams struct {
	minLen  int // a rule is at least this long (half an inch)
	minDash int // a dash of a dashed rule is at least this long
	maxGap  int // dashes of a dashed rule are at most this far apart
	thick   int // a rule is at most this thick
}

// ruleDark: a pixel under this grey is ink (rowDashes' skip of white
// pixels tests the top bit of each byte, so it stays 128).
const ruleDark = 128

func ruleParamsFor(dpi int) ruleParams {
	if dpi <= 0 {
		dpi = 300
	}
	return ruleParams{minLen: dpi / 2, minDash: max(dpi/30, 2), maxGap: max(dpi/12, 2), thick: max(dpi/40, 2)}
}

// greyImage is an 8-bit grey image: pixel (x, y) is
// data[y*stride+x^swz] (swz is 3 for leptonica's bytes in 32-bit words on
// a little-endian machine, 0 for a plain buffer).
type greyImage struct {
	data        []byte
	w, h        int
	stride, swz int
}

func (g *greyImage) dark(x, y int) bool {
	return y >= 0 && y < g.h && g.data[y*g.stride+x^g.swz] < ruleDark
}

// Marks of eraseRules, one byte a pixel.
const (
	markCand  = 1 // part of a row's rule candidate (dashes and their gaps)
	markStack = 2 // candidate in a vertical stack of at most thick rows
)

// eraseRules finds the dashed horizontal rules of g and paints them white;
// it returns the pixels painted. Thin ink is dark pixels in vertical runs
// of at most thick. A row holds a candidate where dashes (clean runs of
// thin ink at least minDash long, see thinRuns) follow each other with
// gaps of at most maxGap over at least minLen, at least 40 % of it ink,
// at least two gaps and half of them wider than thick (a solid rule,
// split only where strokes cross it, is left). A column's stack of
// consecutive candidate rows must be at most thick rows high (a line of
// letters stacks higher). Where a stroke leaves the rule above or below (a
// glyph crossing or touching it) the column is kept, so letters are not
// cut; a candidate kept in more than a fifth of its columns is no rule
// (the top or foot of a line of letters) and is left as it is.
func eraseRules(g *greyImage, dpi int) int {
	rp := ruleParamsFor(dpi)
	w := g.w
	var mark []byte // allocated on the first candidate
	var rows []int  // rows holding candidates, ascending
	var dashes [][2]int
	for y := 0; y < g.h; y++ {
		dashes = rowDashes(g, rp, y, dashes[:0])
		for _, seg := range bridge(g, rp, y, dashes) {
			if mark == nil {
				mark = make([]byte, w*g.h)
			}
			for k := seg[0]; k < seg[1]; k++ {
				mark[y*w+k] = markCand
			}
			if len(rows) == 0 || rows[len(rows)-1] != y {
				rows = append(rows, y)
			}
		}
	}
	// thin stacks: walk down from each stack's top row
	for _, y := range rows {
		for x := 0; x < w; x++ {
			if mark[y*w+x] != markCand || y > 0 && mark[(y-1)*w+x] != 0 {
				continue
			}
			e := y
			for e < g.h && mark[e*w+x] != 0 {
				e++
			}
			if e-y <= rp.thick {
				for k := y; k < e; k++ {
					mark[k*w+x] = markStack
				}
			}
		}
	}
	painted := 0
	for _, y := range rows {
		row := mark[y*w : (y+1)*w]
		for x := 0; x < w; {
			if row[x] != markStack {
				x++
				continue
			}
			e := x
			for e < w && row[e] == markStack {
				e++
			}
			if e-x >= rp.minLen {
				painted += paintRun(g, rp, mark, x, e, y)
			}
			x = e
		}
	}
	return painted
}

// rowDashes appends to out the dashes of row y: runs of thin ink (dark
// pixels whose vertical run is at most thick) at least minDash long. Only
// dark runs that long are looked at closer; four white pixels at a time
// are skipped (a byte >= 128 has its top bit set; leptonica's swizzle
// stays within an aligned group of four).
func rowDashes(g *greyImage, rp ruleParams, y int, out [][2]int) [][2]int {
	row := g.data[y*g.stride : min(y*g.stride+g.stride, len(g.data))]
	for x := 0; x < g.w; {
		if x&3 == 0 && x+4 <= g.w && binary.LittleEndian.Uint32(row[x:])&0x80808080 == 0x80808080 {
			x += 4
			continue
		}
		if row[x^g.swz] >= ruleDark {
			x++
			continue
		}
		e := x + 1
		for e < g.w && row[e^g.swz] < ruleDark {
			e++
		}
		if e-x >= rp.minDash {
			out = thinRuns(g, rp, x, e, y, out)
		}
		x = e
	}
	return out
}

// thinRuns appends the dashes within the dark run x0..x1 of row y: runs
// of thin ink at least minDash long, bounded by white and clean (no ink
// just above or below any of their columns: a glyph's stroke drawn
// across, such as a sideways "1" in a column of figures, has others
// attached).
func thinRuns(g *greyImage, rp ruleParams, x0, x1, y int, out [][2]int) [][2]int {
	start := -1
	for x := x0; x <= x1; x++ {
		if x < x1 && thinAt(g, rp, x, y) {
			if start < 0 {
				start = x
			}
			continue
		}
		if start >= 0 && x-start >= rp.minDash && start == x0 && x == x1 && clean(g, start, x, y) {
			out = append(out, [2]int{start, x})
		}
		start = -1
	}
	return out
}

// clean reports whether no column of the thin run x0..x1 through row y
// has ink within two pixels above or below the run.
func clean(g *greyImage, x0, x1, y int) bool {
	for x := x0; x < x1; x++ {
		t, b := y, y
		for g.dark(x, t-1) {
			t--
		}
		for g.dark(x, b+1) {
			b++
		}
		if g.dark(x, t-2) || g.dark(x, t-3) || g.dark(x, b+2) || g.dark(x, b+3) {
			return false
		}
	}
	return true
}

// thinAt reports whether the dark pixel (x, y) is in a vertical run of at
// most thick pixels.
func thinAt(g *greyImage, rp ruleParams, x, y int) bool {
	n := 1
	for k := y - 1; k >= 0 && g.dark(x, k); k-- {
		if n++; n > rp.thick {
			return false
		}
	}
	for k := y + 1; k < g.h && g.dark(x, k); k++ {
		if n++; n > rp.thick {
			return false
		}
	}
	return true
}

// bridge joins the dashes of row y over gaps of at most maxGap and
// returns the joined stretches of a dashed rule: at least minLen long, at
// least 40 % ink, with at least two gaps and at least half of them wider
// than thick and open (see openGap), and regular (see regular).
func bridge(g *greyImage, rp ruleParams, y int, dashes [][2]int) [][2]int {
	var out [][2]int
	first := 0
	flush := func(end int) { // dashes[first:end] are one stretch
		run := dashes[first:end]
		if len(run) == 0 {
			return
		}
		start, stop, ink, wide := run[0][0], run[len(run)-1][1], 0, 0
		for i, d := range run {
			ink += d[1] - d[0]
			if i > 0 && d[0]-run[i-1][1] > rp.thick && openGap(g, rp, run[i-1][1], d[0], y) {
				wide++
			}
		}
		gaps := len(run) - 1
		if stop-start >= rp.minLen && 5*ink >= 2*(stop-start) && wide >= 2 && 2*wide >= gaps && regular(run) {
			out = append(out, [2]int{start, stop})
		}
	}
	for i, d := range dashes {
		if i > 0 && d[0]-dashes[i-1][1] > rp.maxGap {
			flush(i)
			first = i
		}
	}
	flush(len(dashes))
	return out
}

// openGap reports whether the gap x0..x1 in row y is white across the
// whole band a rule may take (thick rows either side) at its quarter
// points. A thin solid rule left slightly slanted by deskew steps from
// row to row: each row sees it as even dashes, but the neighbouring rows
// fill the gaps.
func openGap(g *greyImage, rp ruleParams, x0, x1, y int) bool {
	for _, x := range []int{x0 + (x1-x0)/4, (x0 + x1) / 2, x1 - 1 - (x1-x0)/4} {
		for k := y - rp.thick; k <= y+rp.thick; k++ {
			if g.dark(x, k) {
				return false
			}
		}
	}
	return true
}

// regular reports whether a stretch of dashes has the even pattern of a
// printed dashed line: the inner dashes (the end ones may be cut short
// where the rule meets another) and all gaps within 30 % of their
// medians. Strokes of characters that happen to line up (a row of Han
// characters' horizontal strokes) vary in length and spacing.
func regular(run [][2]int) bool {
	var lens, gaps []int
	for i, d := range run {
		if i > 0 && i < len(run)-1 {
			lens = append(lens, d[1]-d[0])
		}
		if i > 0 {
			gaps = append(gaps, d[0]-run[i-1][1])
		}
	}
	return within(lens) && within(gaps)
}

// within reports whether every value is within 30 % of their median.
func within(v []int) bool {
	if len(v) == 0 {
		return true
	}
	s := slices.Clone(v)
	slices.Sort(s)
	m := s[len(s)/2]
	return 10*s[0] >= 7*m && 10*s[len(s)-1] <= 13*m
}

// paintRun paints white the stacks of columns x0..x1 whose top row is y,
// one pixel grown above and below, except in columns where a dark pixel
// continues the column just outside the stack (a stroke crossing or
// touching the rule). When more than a fifth of the columns are so kept,
// nothing is painted. It returns the pixels painted.
func paintRun(g *greyImage, rp ruleParams, mark []byte, x0, x1, y int) int {
	w := g.w
	bottom := func(x int) int {
		e := y
		for e < g.h && mark[e*w+x] == markStack {
			e++
		}
		return e
	}
	top := func(x int) bool { return y == 0 || mark[(y-1)*w+x] != markStack }
	kept, cols := 0, 0
	for x := x0; x < x1; x++ {
		if !top(x) {
			continue // the stack started on an earlier row
		}
		cols++
		if g.dark(x, y-2) || g.dark(x, bottom(x)+1) {
			kept++
		}
	}
	if 5*kept > cols {
		return 0
	}
	n := 0
	for x := x0; x < x1; x++ {
		if !top(x) {
			continue
		}
		e := bottom(x)
		if g.dark(x, y-2) || g.dark(x, e+1) {
			continue
		}
		for k := max(y-1, 0); k < min(e+1, g.h); k++ {
			if i := k*g.stride + x ^ g.swz; g.data[i] != 255 {
				g.data[i] = 255
				n++
			}
		}
	}
	return n
}

// erasePixRules paints the dashed horizontal rules of an 8 bpp leptonica pix
// white in place (eraseRules) and returns the pixels painted.
func erasePixRules(img *C.PIX, dpi int) int {
	if C.dk_pixGetDepth(img) != 8 {
		return 0
	}
	w, h, wpl := int(C.dk_pixGetWidth(img)), int(C.dk_pixGetHeight(img)), int(C.dk_pixGetWpl(img))
	data := unsafe.Slice((*byte)(unsafe.Pointer(C.dk_pixGetData(img))), wpl*4*h)
	swz := 0
	if binary.NativeEndian.Uint16([]byte{1, 0}) == 1 {
		swz = 3 // leptonica keeps a row's bytes in native 32-bit words
	}
	return eraseRules(&greyImage{data: data, w: w, h: h, stride: wpl * 4, swz: swz}, dpi)
}
