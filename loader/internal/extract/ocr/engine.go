package ocr

/*
#cgo pkg-config: tesseract lept
#include <stdlib.h>
#include <string.h>
#include <leptonica/allheaders.h>
#include <tesseract/capi.h>

// grey_to_pix copies an 8-bit grey buffer (rows of stride bytes) into a new
// 8 bpp leptonica Pix. Leptonica packs bytes into 32-bit words in native
// order, so SET_DATA_BYTE does the swizzling.
static PIX *grey_to_pix(const unsigned char *src, int w, int h, int stride, int dpi) {
	PIX *pix = pixCreate(w, h, 8);
	if (pix == NULL) return NULL;
	l_uint32 *data = pixGetData(pix);
	int wpl = pixGetWpl(pix);
	for (int y = 0; y < h; y++) {
		l_uint32 *line = data + y * wpl;
		const unsigned char *row = src + (size_t)y * stride;
		for (int x = 0; x < w; x++) {
			SET_DATA_BYTE(line, x, row[x]);
		}
	}
	pixSetResolution(pix, dpi, dpi);
	return pix;
}

// deskew returns a deskewed copy (or a clone when no skew was found) and the
// angle in degrees; the caller destroys both pixes.
static PIX *deskew(PIX *pix, float *angle, float *conf) {
	*angle = 0; *conf = 0;
	PIX *d = pixFindSkewAndDeskew(pix, 0, angle, conf);
	return d;
}

static void destroy_pix(PIX *pix) { pixDestroy(&pix); }

// quiet_leptonica keeps leptonica's warnings (e.g. "max found at sweep
// edge" from the skew search) off the worker's stderr; errors still show.
static void quiet_leptonica(void) { setMsgSeverity(L_SEVERITY_ERROR); }

typedef struct {
	char *text;
	float conf;
	int x0, y0, x1, y1;
	int new_block, new_para, new_line;
} word_t;

// next_word fills w with the word under the iterator. It returns 0 when the
// iterator is exhausted.
static int read_word(TessResultIterator *it, word_t *w) {
	const TessPageIterator *pit = TessResultIteratorGetPageIteratorConst(it);
	w->new_block = TessPageIteratorIsAtBeginningOf(pit, RIL_BLOCK);
	w->new_para = TessPageIteratorIsAtBeginningOf(pit, RIL_PARA);
	w->new_line = TessPageIteratorIsAtBeginningOf(pit, RIL_TEXTLINE);
	w->text = TessResultIteratorGetUTF8Text(it, RIL_WORD);
	w->conf = TessResultIteratorConfidence(it, RIL_WORD);
	if (!TessPageIteratorBoundingBox(pit, RIL_WORD, &w->x0, &w->y0, &w->x1, &w->y1)) {
		w->x0 = w->y0 = w->x1 = w->y1 = 0;
	}
	return 1;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/docket-dev/docket/loader/internal/document"
)

// Thresholding methods Tesseract offers for binarization (its
// thresholding_method variable).
const (
	ThresholdOtsu          = 0 // Tesseract's own Otsu (its default)
	ThresholdLeptonicaOtsu = 1 // leptonica's tiled adaptive Otsu
	ThresholdSauvola       = 2 // leptonica's Sauvola
)

// Preprocess selects the image preparation done before recognition. The
// defaults (DefaultPreprocess) are the ones that measurably helped on the
// evaluation corpus; the others exist so tools/eval-ocr can measure them.
type Preprocess struct {
	Deskew       bool // leptonica pixFindSkewAndDeskew before recognition
	Thresholding int  // one of the Threshold* constants
}

// DefaultPreprocess is what NewEngine uses: deskew on, Tesseract's Otsu.
var DefaultPreprocess = Preprocess{Deskew: true, Thresholding: ThresholdOtsu}

// Engine is one Tesseract instance, initialised once for a set of languages
// and reused for every page a worker process recognises. It is safe for
// concurrent use, but recognises one page at a time; run several worker
// processes for parallelism.
type Engine struct {
	mu    sync.Mutex
	api   *C.TessBaseAPI
	langs string
	pre   Preprocess
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
	quietOnce.Do(func() { C.quiet_leptonica() })
	api := C.TessBaseAPICreate()
	if api == nil {
		return nil, errors.New("ocr: cannot create tesseract instance")
	}
	cl := C.CString(l)
	defer C.free(unsafe.Pointer(cl))
	if C.TessBaseAPIInit3(api, nil, cl) != 0 {
		C.TessBaseAPIDelete(api)
		return nil, fmt.Errorf("ocr: tesseract cannot load language(s) %q: is the tesseract-ocr-<lang> package installed?", l)
	}
	C.TessBaseAPISetPageSegMode(api, C.PSM_AUTO)
	e := &Engine{api: api, langs: l, pre: pre}
	// Tesseract's diagnostics ("Estimating resolution as …") go to its
	// debug file, not to the worker's stderr.
	for _, kv := range [][2]string{{"thresholding_method", fmt.Sprint(pre.Thresholding)}, {"debug_file", "/dev/null"}} {
		if err := e.setVar(kv[0], kv[1]); err != nil {
			e.Close()
			return nil, err
		}
	}
	return e, nil
}

// langString validates language codes and joins them the way Tesseract
// wants ("eng+deu").
func langString(langs []string) (string, error) {
	if len(langs) == 0 {
		return "eng", nil
	}
	for _, l := range langs {
		if l == "" {
			return "", errors.New("ocr: empty language code")
		}
		for _, r := range l {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
				return "", fmt.Errorf("ocr: invalid language code %q", l)
			}
		}
	}
	return strings.Join(langs, "+"), nil
}

func (e *Engine) setVar(name, value string) error {
	cn, cv := C.CString(name), C.CString(value)
	defer C.free(unsafe.Pointer(cn))
	defer C.free(unsafe.Pointer(cv))
	if C.TessBaseAPISetVariable(e.api, cn, cv) == 0 {
		return fmt.Errorf("ocr: tesseract rejected %s=%s", name, value)
	}
	return nil
}

// Languages returns the languages the engine was started with ("eng+deu").
func (e *Engine) Languages() string { return e.langs }

// Close frees the Tesseract instance. The engine cannot be used afterwards.
func (e *Engine) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.api != nil {
		C.TessBaseAPIEnd(e.api)
		C.TessBaseAPIDelete(e.api)
		e.api = nil
	}
}

// RecognizeGray recognises one page given as 8-bit grey pixels (w×h, rows
// stride bytes apart) rendered at dpi (0 when unknown: Tesseract then
// estimates it from glyph sizes, and WidthPt/HeightPt stay 0). Boxes in the result are in pixels of
// that image (after deskewing, which keeps the image size). Recognition runs
// once; words, text and confidences all come from that pass.
func (e *Engine) RecognizeGray(pix []byte, w, h, stride, dpi int, opts document.Options) (PageResult, error) {
	if w <= 0 || h <= 0 || stride < w || len(pix) < stride*(h-1)+w {
		return PageResult{}, fmt.Errorf("ocr: bad grey buffer %dx%d stride %d len %d", w, h, stride, len(pix))
	}
	if dpi < 0 {
		dpi = 0
	}
	words, angle, err := e.recognize(pix, w, h, stride, dpi)
	if err != nil {
		return PageResult{}, err
	}
	res := Assemble(words, opts)
	res.Width, res.Height, res.DPI = w, h, dpi
	if dpi > 0 {
		res.WidthPt = float64(w) * 72 / float64(dpi)
		res.HeightPt = float64(h) * 72 / float64(dpi)
	}
	res.SkewAngle = angle
	return res, nil
}

func (e *Engine) recognize(pix []byte, w, h, stride, dpi int) ([]document.OCRWord, float64, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.api == nil {
		return nil, 0, errors.New("ocr: engine is closed")
	}
	p := C.grey_to_pix((*C.uchar)(unsafe.Pointer(&pix[0])), C.int(w), C.int(h), C.int(stride), C.int(dpi))
	if p == nil {
		return nil, 0, errors.New("ocr: cannot allocate image")
	}
	defer C.destroy_pix(p)
	var angle C.float
	img := p
	if e.pre.Deskew {
		var conf C.float
		d := C.deskew(p, &angle, &conf)
		if d != nil {
			defer C.destroy_pix(d)
			img = d
		}
	}
	C.TessBaseAPISetImage2(e.api, img)
	if dpi > 0 {
		C.TessBaseAPISetSourceResolution(e.api, C.int(dpi))
	}
	defer C.TessBaseAPIClear(e.api)
	if C.TessBaseAPIRecognize(e.api, nil) != 0 {
		return nil, 0, errors.New("ocr: tesseract recognition failed")
	}
	it := C.TessBaseAPIGetIterator(e.api)
	if it == nil { // nothing found on the page
		return nil, float64(angle), nil
	}
	defer C.TessResultIteratorDelete(it)
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
			C.TessDeleteText(cw.text)
			if text != "" {
				words = append(words, document.OCRWord{
					Seq:        len(words),
					Text:       text,
					BBox:       document.BBox{X0: float64(cw.x0), Y0: float64(cw.y0), X1: float64(cw.x1), Y1: float64(cw.y1)},
					Confidence: float64(cw.conf),
					Block:      max(block, 0),
					Paragraph:  max(para, 0),
					Line:       max(line, 0),
				})
			}
		}
		if C.TessResultIteratorNext(it, C.RIL_WORD) == 0 {
			break
		}
	}
	return words, float64(angle), nil
}
