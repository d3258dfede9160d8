package ocr

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include <string.h>
#include "dl.h"

// grey_to_pix copies an 8-bit grey buffer (rows of stride bytes) into a new
// 8 bpp leptonica Pix. Leptonica packs bytes into 32-bit words in native
// order, so SET_DATA_BYTE does the swizzling.
static PIX *grey_to_pix(const unsigned char *src, int w, int h, int stride, int dpi) {
	PIX *pix = dk_pixCreate(w, h, 8);
	if (pix == NULL) return NULL;
	l_uint32 *data = dk_pixGetData(pix);
	int wpl = dk_pixGetWpl(pix);
	for (int y = 0; y < h; y++) {
		l_uint32 *line = data + y * wpl;
		const unsigned char *row = src + (size_t)y * stride;
		for (int x = 0; x < w; x++) {
			SET_DATA_BYTE(line, x, row[x]);
		}
	}
	dk_pixSetResolution(pix, dpi, dpi);
	return pix;
}

// deskew returns a deskewed copy (or a clone when no skew was found) and the
// angle in degrees; the caller destroys both pixes.
static PIX *deskew(PIX *pix, float *angle, float *conf) {
	*angle = 0; *conf = 0;
	PIX *d = dk_pixFindSkewAndDeskew(pix, 0, angle, conf);
	return d;
}

static void destroy_pix(PIX *pix) { dk_pixDestroy(&pix); }
static int pix_width(PIX *pix) { return dk_pixGetWidth(pix); }
static int pix_height(PIX *pix) { return dk_pixGetHeight(pix); }

// quiet_leptonica keeps leptonica's warnings (e.g. "max found at sweep
// edge" from the skew search) off the worker's stderr; errors still show.
static void quiet_leptonica(void) { dk_setMsgSeverity(L_SEVERITY_ERROR); }

typedef struct {
	char *text;
	float conf;
	int x0, y0, x1, y1;
	int new_block, new_para, new_line;
	int dict;
} word_t;

// next_word fills w with the word under the iterator. It returns 0 when the
// iterator is exhausted.
static int read_word(TessResultIterator *it, word_t *w) {
	const TessPageIterator *pit = dk_TessResultIteratorGetPageIteratorConst(it);
	w->new_block = dk_TessPageIteratorIsAtBeginningOf(pit, RIL_BLOCK);
	w->new_para = dk_TessPageIteratorIsAtBeginningOf(pit, RIL_PARA);
	w->new_line = dk_TessPageIteratorIsAtBeginningOf(pit, RIL_TEXTLINE);
	w->text = dk_TessResultIteratorGetUTF8Text(it, RIL_WORD);
	w->conf = dk_TessResultIteratorConfidence(it, RIL_WORD);
	w->dict = dk_TessResultIteratorWordIsFromDictionary(it);
	if (!dk_TessPageIteratorBoundingBox(pit, RIL_WORD, &w->x0, &w->y0, &w->x1, &w->y1)) {
		w->x0 = w->y0 = w->x1 = w->y1 = 0;
	}
	return 1;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/docket-dev/docket/loader/internal/document"
)

// Engine is one Tesseract instance, initialised once for a set of languages
// and reused for every page a worker process recognises. It is safe for
// concurrent use, but recognises one page at a time; run several worker
// processes for parallelism.
type Engine struct {
	mu     sync.Mutex
	api    *C.TessBaseAPI
	langs  string // as configured ("eng+deu+xyz"): the key Shared compares
	loaded string // what Tesseract loaded of them ("eng"): what readsScript consults
	pre    Preprocess
	osd    *C.TessBaseAPI // orientation and script detection, started on first use
	osdErr error          // why there is no OSD (model missing)
}

var quietOnce sync.Once

// NewEngine starts Tesseract for langs (e.g. ["eng"], default eng) with the
// default engine mode and automatic page segmentation.
func NewEngine(langs []string) (*Engine, error) {
	return NewEngineWith(langs, DefaultPreprocess)
}

// NewEngineWith is NewEngine with explicit preprocessing.
func NewEngineWith(langs []string, pre Preprocess) (*Engine, error) {
	l, err := langString(langs)
	if err != nil {
		return nil, err
	}
	if C.dk_ocr_load() != 0 {
		return nil, fmt.Errorf("ocr: %s (apt-get install libtesseract5 tesseract-ocr-eng)", C.GoString(C.dk_ocr_error()))
	}
	quietOnce.Do(func() { C.quiet_leptonica() })
	api := C.dk_TessBaseAPICreate()
	if api == nil {
		return nil, errors.New("ocr: cannot create tesseract instance")
	}
	cl := C.CString(l)
	defer C.free(unsafe.Pointer(cl))
	if C.dk_TessBaseAPIInit3(api, nil, cl) != 0 {
		C.dk_TessBaseAPIDelete(api)
		return nil, fmt.Errorf("ocr: tesseract cannot load language(s) %q: is the tesseract-ocr-<lang> package installed?", l)
	}
	C.dk_TessBaseAPISetPageSegMode(api, C.PSM_AUTO)
	e := &Engine{api: api, langs: l, loaded: loadedLanguages(api), pre: pre}
	// Tesseract's diagnostics ("Estimating resolution as …") go to its
	// debug file, not to the worker's stderr.
	// The first reading does not retry weak lines inverted (white on
	// black); the second reading of weak lines turns a light-on-dark line
	// itself (see lineCrop).
	// textord_all_prop: every row is taken as proportional text, so
	// textord does not search each row for a fixed pitch (tune_row_pitch,
	// ~5 % of a second reading's CPU): the LSTM reader finds characters
	// and spaces itself. Same F1 on the tune scans, holdout +0.0006.
	for _, kv := range [][2]string{{"thresholding_method", fmt.Sprint(pre.Thresholding)}, {"debug_file", "/dev/null"},
		{"tessedit_do_invert", invertFirst(pre)}, {"textord_all_prop", "1"}} {
		if err := e.setVar(kv[0], kv[1]); err != nil {
			e.Close()
			return nil, err
		}
	}
	return e, nil
}

func (e *Engine) setVar(name, value string) error {
	cn, cv := C.CString(name), C.CString(value)
	defer C.free(unsafe.Pointer(cn))
	defer C.free(unsafe.Pointer(cv))
	if C.dk_TessBaseAPISetVariable(e.api, cn, cv) == 0 {
		return fmt.Errorf("ocr: tesseract rejected %s=%s", name, value)
	}
	return nil
}

// boolVar reads a boolean Tesseract variable of the engine; ok is false
// when Tesseract has no such variable.
func (e *Engine) boolVar(name string) (v, ok bool) {
	cn := C.CString(name)
	defer C.free(unsafe.Pointer(cn))
	var b C.BOOL
	if C.dk_TessBaseAPIGetBoolVariable(e.api, cn, &b) == 0 {
		return false, false
	}
	return b != 0, true
}

// Languages returns the languages the engine was started with ("eng+deu").
func (e *Engine) Languages() string { return e.langs }

// Loaded returns the languages Tesseract loaded ("eng"). Init succeeds
// when any one of the configured languages has a model and leaves out the
// others (not installed, or no such language), so this is what the engine
// reads with.
func (e *Engine) Loaded() string { return e.loaded }

// loadedLanguages asks Tesseract which languages api loaded, joined with
// "+"; "" if it cannot say.
func loadedLanguages(api *C.TessBaseAPI) string {
	arr := C.dk_TessBaseAPIGetLoadedLanguagesAsVector(api)
	if arr == nil {
		return ""
	}
	defer C.dk_TessDeleteTextArray(arr)
	var ls []string
	for p := arr; *p != nil; p = (**C.char)(unsafe.Add(unsafe.Pointer(p), unsafe.Sizeof(*p))) {
		ls = append(ls, C.GoString(*p))
	}
	return strings.Join(ls, "+")
}

// unloadedNote says which configured languages Tesseract did not load
// (" (deu, xyz: no model loaded)"), "" when it loaded them all.
func (e *Engine) unloadedNote() string {
	loaded := strings.Split(e.loaded, "+")
	var missing []string
	for _, l := range strings.Split(e.langs, "+") {
		if !slices.Contains(loaded, l) {
			missing = append(missing, l)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return " (" + strings.Join(missing, ", ") + ": no model loaded)"
}

// Close frees the Tesseract instance. The engine cannot be used afterwards.
func (e *Engine) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, api := range []**C.TessBaseAPI{&e.api, &e.osd} {
		if *api != nil {
			C.dk_TessBaseAPIEnd(*api)
			C.dk_TessBaseAPIDelete(*api)
			*api = nil
		}
	}
}

// RecognizeGray recognises one page given as 8-bit grey pixels (w×h, rows
// stride bytes apart) rendered at dpi (0 when unknown: Tesseract then
// estimates it from glyph sizes, and WidthPt/HeightPt stay 0). Boxes in the
// result are in pixels of that image as given, whatever turn and deskew
// recognition saw it through, and Width/Height are its size. Recognition
// runs once; words, text and confidences all come from that pass (pages
// OSD is unsure of are first read in trial crops, see orient.go).
func (e *Engine) RecognizeGray(pix []byte, w, h, stride, dpi int, opts document.Options) (PageResult, error) {
	if w <= 0 || h <= 0 || stride < w || len(pix) < stride*(h-1)+w {
		return PageResult{}, fmt.Errorf("ocr: bad grey buffer %dx%d stride %d len %d", w, h, stride, len(pix))
	}
	if dpi < 0 {
		dpi = 0
	}
	words, info, err := e.recognize(pix, w, h, stride, dpi, opts.OCRMinWordConf)
	if err != nil {
		return PageResult{}, err
	}
	res := Assemble(words, opts)
	res.Width, res.Height, res.DPI = w, h, dpi
	res.Rotated, res.Script = info.rotated, info.osd.script
	if info.unreadable {
		res.ReviewReason = fmt.Sprintf("%s: the page is in %s script (OSD confidence %.1f), which the OCR languages (%s%s) do not read; install %s and add its language to ocr.languages in project.yaml",
			document.ReviewScriptNotInstalled, info.osd.script, info.osd.scriptConf, e.loaded, e.unloadedNote(), suggestLanguage(info.osd.script))
	} else if res.ReviewReason == "" {
		res.ReviewReason = languageReview(res.Text, e.loaded, e.unloadedNote())
	}
	angle := info.angle
	if dpi > 0 {
		res.WidthPt = float64(w) * 72 / float64(dpi)
		res.HeightPt = float64(h) * 72 / float64(dpi)
	}
	res.SkewAngle = angle
	return res, nil
}

// recogInfo is what recognize learned besides the words.
type recogInfo struct {
	angle      float64 // deskew angle, degrees
	rotated    int     // clockwise degrees the page was turned upright (0, 90, 180, 270)
	osd        osdResult
	unreadable bool // OSD found a script the languages do not read: not recognised
	trial      bool // OSD was unsure: the orientation was decided by trial readings
}

func (e *Engine) recognize(pix []byte, w, h, stride, dpi int, minConf float64) ([]document.OCRWord, recogInfo, error) {
	var info recogInfo
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.api == nil {
		return nil, info, errors.New("ocr: engine is closed")
	}
	p := newPix(pix, w, h, stride, dpi)
	if p == nil {
		return nil, info, errors.New("ocr: cannot allocate image")
	}
	defer C.destroy_pix(p)
	defer C.dk_TessBaseAPIClear(e.api)
	var words []document.OCRWord
	var err error
	withLineCodec(func() { words, err = e.readAll(p, w, h, dpi, minConf, &info) })
	return words, info, err
}

// readAll reads p (oriented when configured), reads its weak lines
// again, and maps the words back to p's pixels. The caller holds the
// engine's lock.
func (e *Engine) readAll(p *C.PIX, w, h, dpi int, minConf float64, info *recogInfo) ([]document.OCRWord, error) {
	var pg page
	var err error
	if e.pre.Orient {
		pg, err = e.readOriented(p, dpi, info)
	} else {
		pg, err = e.readPage(p, dpi, false)
	}
	if err != nil || pg.img == nil {
		return nil, err
	}
	defer pg.release()
	info.angle = pg.angle
	words := pg.words
	if e.pre.Reread {
		words = e.rereadLow(pg.img, int(C.pix_width(pg.img)), int(C.pix_height(pg.img)), words, dpi, minConf)
	}
	mapBack(words, w, h, info.rotated/90, info.angle)
	return words, nil
}

// page is one recognition of a page image: the (deskewed) image
// Tesseract read, which the second reading crops from, and its words in
// that image's pixels.
type page struct {
	img      *C.PIX // nil when the page was not read
	owned    bool   // img is a copy made here, destroyed by release
	angle    float64
	words    []document.OCRWord
	dict     dictCount
	sideways bool // the layout check found the text lines running down the page: not recognised
}

func (pg *page) release() {
	if pg.img != nil && pg.owned {
		C.destroy_pix(pg.img)
	}
	pg.img = nil
}

// readPage deskews src and erases its dashed rules (when configured)
// and recognises it. With checkLayout, Tesseract's layout analysis runs
// first (recognition then reuses it) and a page whose text lines mostly
// run down the page is returned unread, with sideways set.
func (e *Engine) readPage(src *C.PIX, dpi int, checkLayout bool) (page, error) {
	pg := page{img: src}
	if e.pre.Deskew {
		var angle, conf C.float
		if d := C.deskew(src, &angle, &conf); d != nil {
			pg.img, pg.owned = d, true
		}
		pg.angle = float64(angle)
	}
	if e.pre.EraseRules {
		// Painted on a copy, never on src: a page found sideways is read
		// again turned, and its rules across then are columns' rules.
		if !pg.owned {
			if c := C.dk_pixCopy(nil, pg.img); c != nil {
				pg.img, pg.owned = c, true
			}
		}
		if pg.owned {
			erasePixRules(pg.img, dpi)
		}
	}
	C.dk_TessBaseAPIClear(e.api)
	C.dk_TessBaseAPISetImage2(e.api, pg.img)
	if dpi > 0 {
		C.dk_TessBaseAPISetSourceResolution(e.api, C.int(dpi))
	}
	if checkLayout {
		across, down := e.lineAreas()
		if down > sidewaysShare*(across+down) {
			pg.sideways = true
			return pg, nil
		}
	}
	if C.dk_TessBaseAPIRecognize(e.api, nil) != 0 {
		pg.release()
		return pg, errors.New("ocr: tesseract recognition failed")
	}
	pg.words, pg.dict = e.readWords(0, 0, 1)
	return pg, nil
}

// newPix copies an 8-bit grey buffer into a new leptonica Pix (the caller
// destroys it), or nil.
func newPix(pix []byte, w, h, stride, dpi int) *C.PIX {
	return C.grey_to_pix((*C.uchar)(unsafe.Pointer(&pix[0])), C.int(w), C.int(h), C.int(stride), C.int(dpi))
}

// readWords reads the words of the last recognition; boxes are mapped back
// by x/scale+ox, y/scale+oy.
func (e *Engine) readWords(ox, oy, scale float64) ([]document.OCRWord, dictCount) {
	var dc dictCount
	it := C.dk_TessBaseAPIGetIterator(e.api)
	if it == nil { // nothing found
		return nil, dc
	}
	defer C.dk_TessResultIteratorDelete(it)
	var words []document.OCRWord
	block, para, line := -1, -1, -1
	var cw C.word_t
	for {
		C.read_word(it, &cw)
		if cw.new_block != 0 {
			block++
		}
		if cw.new_para != 0 {
			para++
		}
		if cw.new_line != 0 {
			line++
		}
		if cw.text != nil {
			text := strings.TrimSpace(C.GoString(cw.text))
			C.dk_TessDeleteText(cw.text)
			if text != "" {
				dc.add(text, cw.dict != 0)
				words = append(words, document.OCRWord{
					Seq:  len(words),
					Text: text,
					BBox: document.BBox{X0: float64(cw.x0)/scale + ox, Y0: float64(cw.y0)/scale + oy,
						X1: float64(cw.x1)/scale + ox, Y1: float64(cw.y1)/scale + oy},
					Confidence: float64(cw.conf),
					Block:      max(block, 0),
					Paragraph:  max(para, 0),
					Line:       max(line, 0),
				})
			}
		}
		if C.dk_TessResultIteratorNext(it, C.RIL_WORD) == 0 {
			break
		}
	}
	return words, dc
}

// applyReread applies the second reading's outcome to words: new
// confidences for confirmed words, and groups of words replaced by their
// new reading (at the index of the group's first word; the others map to
// nil). Seq is renumbered.
func applyReread(words []document.OCRWord, repl map[int][]document.OCRWord, confirm map[int]float64) []document.OCRWord {
	for i, c := range confirm {
		words[i].Confidence = c
	}
	if len(repl) == 0 {
		return words
	}
	out := make([]document.OCRWord, 0, len(words)+len(repl))
	for i, wd := range words {
		if g, ok := repl[i]; ok {
			out = append(out, g...)
			continue
		}
		out = append(out, wd)
	}
	for i := range out {
		out[i].Seq = i
	}
	return out
}

// invertFirst is tessedit_do_invert: off when the second reading of weak
// lines (which turns light-on-dark lines itself, see lineCrop) follows.
func invertFirst(pre Preprocess) string {
	if pre.Reread {
		return "0"
	}
	return "1"
}
