package ocr

import (
	"errors"
	"fmt"
	"strings"
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
	// Reread recognises every text line holding a word under
	// opts.OCRMinWordConf a second time, alone (see rereadLow).
	Reread bool
	// Orient runs orientation and script detection first (see osd.go).
	Orient bool
	// EraseRules paints dashed horizontal table rules white after deskew,
	// before the first reading (see rules.go).
	EraseRules bool
}

// DefaultPreprocess is what NewEngine uses: deskew on, dashed table
// rules erased, Tesseract's Otsu, low-confidence lines read a second time.
var DefaultPreprocess = Preprocess{Deskew: true, Thresholding: ThresholdOtsu, Reread: true, Orient: true, EraseRules: true}

// Second reading of low-confidence lines: each weak word with
// rereadContext words either side (runs merged) is cropped from the
// (deskewed) page with rereadMargin pixels around, the line's full height,
// scaled by rereadScale, given a white border of rereadBorder pixels and
// recognised as a single text line.
//
// The second reading's CPU is the LSTM's and textord's work over the
// crops' width (per call set-up is negligible: a span costs in proportion
// to width/height), so on a page the first reading was mostly unsure of
// (corpus p00: weak spans cover 72 % of its lines' width) it is nearly a
// second recognition. Measured on the tune scans and not kept (ocr12):
// rereadScale 1.0 (reread CPU -37 %, p00 F1 0.6126 -> 0.5743) or 1.5
// (p00 0.5714); the crop squeezed across (1.6 or 1.3 across, 2 down:
// p00 0.5646 / 0.5542); a per-page budget of span width (half the lines'
// width, weakest spans first: p00 -0.018, p10 -0.005); leaving out spans
// whose weakest word is 45 or surer (p08 -0.003, p10 -0.006); context
// capped at 3 or 5 line heights (p10 -0.014 / -0.006); lstm_use_matrix=0,
// tessedit_fix_fuzzy_spaces=0, tessedit_enable_doc_dict=0 (no change).
const (
	rereadContext = 2
	rereadMargin  = 4
	rereadScale   = 2.0
	rereadBorder  = 10
)

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
