package ocr

/*
#include <stdlib.h>
#include "dl.h"

static PIX *rotate_orth(PIX *p, int quads) { return dk_pixRotateOrth(p, quads); }
*/
import "C"

import (
	"fmt"
	"strings"
	"unsafe"
)

// Orientation and script detection (Tesseract's OSD, the osd.traineddata
// model of Debian's tesseract-ocr-osd) runs only on pages that are OCR'd,
// and of those only on the pages whose first reading is not plainly
// upright text (see readOriented in orient.go): a page scanned sideways or
// upside down is turned upright, and a page in a script none of the
// configured languages reads is flagged instead of being read as if it
// were English.

// Confidence floors for acting on OSD. Tesseract's orientation confidence
// is a margin between the best and the second orientation; on the corpus
// scans upright pages scored 0 (no turn) or low, turned ones far higher.
const (
	minOrientConf = 2.0
	minScriptConf = 2.0 // 1.0 let an upright English scan (corpus p03, Han at 1.2) lose its text
)

// osdResult is what OSD said about a page.
type osdResult struct {
	ok         bool    // OSD ran and found enough text to decide
	deg        int     // clockwise degrees the page is turned from upright: 0, 90, 180, 270
	conf       float64 // orientation confidence
	script     string  // Tesseract's script name ("Latin", "Arabic", "Han", ...)
	scriptConf float64
}

// detectOS runs OSD on img with the engine's OSD instance, started on
// first use. ok is false when the osd model is missing (e.osdErr says so)
// or the page has too little text.
func (e *Engine) detectOS(img *C.PIX) osdResult {
	if e.osd == nil && e.osdErr == nil {
		api := C.dk_TessBaseAPICreate()
		cl := C.CString("osd")
		defer C.free(unsafe.Pointer(cl))
		if api == nil || C.dk_TessBaseAPIInit3(api, nil, cl) != 0 {
			if api != nil {
				C.dk_TessBaseAPIDelete(api)
			}
			e.osdErr = fmt.Errorf("ocr: orientation detection is off: Tesseract's osd model is missing (apt-get install tesseract-ocr-osd)")
			return osdResult{}
		}
		C.dk_TessBaseAPISetPageSegMode(api, C.PSM_OSD_ONLY)
		e.osd = api
	}
	if e.osd == nil {
		return osdResult{}
	}
	C.dk_TessBaseAPISetImage2(e.osd, img)
	defer C.dk_TessBaseAPIClear(e.osd)
	var deg C.int
	var conf, sconf C.float
	var script *C.char
	if C.dk_TessBaseAPIDetectOrientationScript(e.osd, &deg, &conf, &script, &sconf) == 0 {
		return osdResult{}
	}
	r := osdResult{ok: true, deg: int(deg), conf: float64(conf), scriptConf: float64(sconf)}
	if script != nil {
		r.script = C.GoString(script)
	}
	return r
}

// turnPix returns img turned clockwise by q quarter turns (the caller
// destroys it), or nil.
func turnPix(img *C.PIX, q int) *C.PIX { return C.rotate_orth(img, C.int(q)) }

// scriptLanguages: Tesseract's OSD script names and the language models
// (Debian tesseract-ocr-LANG) that read them. A loaded language not listed
// here (a model of its own under TESSDATA_PREFIX) is assumed to read any
// script; a configured one Tesseract did not load plays no part.
var scriptLanguages = map[string][]string{
	"Latin": {"eng", "deu", "fra", "spa", "ita", "por", "nld", "swe", "dan", "nor", "fin", "pol", "ces", "slk", "hun", "ron", "tur", "hrv", "slv",
		"lit", "lav", "est", "cat", "eus", "glg", "isl", "gle", "vie", "ind", "msa", "tgl", "afr", "sqi", "aze", "bos", "cym", "epo", "lat", "mlt", "swa", "uzb", "script/Latin"},
	"Cyrillic":   {"rus", "ukr", "bel", "bul", "srp", "mkd", "kaz", "kir", "mon", "tat", "tgk", "script/Cyrillic"},
	"Arabic":     {"ara", "fas", "urd", "pus", "uig", "snd", "script/Arabic"},
	"Hebrew":     {"heb", "yid", "script/Hebrew"},
	"Han":        {"chi_sim", "chi_tra", "jpn", "chi_sim_vert", "chi_tra_vert", "jpn_vert", "script/HanS", "script/HanT", "script/Japanese"},
	"Japanese":   {"jpn", "jpn_vert", "script/Japanese"},
	"Katakana":   {"jpn", "jpn_vert", "script/Japanese"},
	"Hiragana":   {"jpn", "jpn_vert", "script/Japanese"},
	"Hangul":     {"kor", "kor_vert", "script/Hangul"},
	"Greek":      {"ell", "grc", "script/Greek"},
	"Devanagari": {"hin", "mar", "nep", "san", "script/Devanagari"},
	"Thai":       {"tha", "script/Thai"},
	"Bengali":    {"ben", "asm", "script/Bengali"},
	"Tamil":      {"tam", "script/Tamil"},
	"Telugu":     {"tel", "script/Telugu"},
	"Kannada":    {"kan", "script/Kannada"},
	"Malayalam":  {"mal", "script/Malayalam"},
	"Gujarati":   {"guj", "script/Gujarati"},
	"Gurmukhi":   {"pan", "script/Gurmukhi"},
	"Georgian":   {"kat", "script/Georgian"},
	"Armenian":   {"hye", "script/Armenian"},
	"Ethiopic":   {"amh", "script/Ethiopic"},
	"Khmer":      {"khm", "script/Khmer"},
	"Myanmar":    {"mya", "script/Myanmar"},
	"Sinhala":    {"sin", "script/Sinhala"},
	"Tibetan":    {"bod", "script/Tibetan"},
}

// readsScript reports whether the languages ("eng+deu", those Tesseract
// loaded: Engine.loaded, not the configured list, which may name models
// that are not installed or do not exist) can read script. Unknown scripts
// and loaded models not in scriptLanguages count as readable: only a known
// mismatch is flagged.
func readsScript(langs, script string) bool {
	if _, known := scriptLanguages[script]; !known {
		return true
	}
	for _, l := range strings.Split(langs, "+") {
		listed := false
		for s, ls := range scriptLanguages {
			for _, x := range ls {
				if x == l {
					listed = true
					if s == script {
						return true
					}
				}
			}
		}
		if !listed {
			return true
		}
	}
	return false
}

// suggestLanguage names a Debian package for a script ("tesseract-ocr-ara").
func suggestLanguage(script string) string {
	ls := scriptLanguages[script]
	if len(ls) == 0 {
		return "the tesseract-ocr-LANG package of its language"
	}
	return "tesseract-ocr-" + ls[0]
}
