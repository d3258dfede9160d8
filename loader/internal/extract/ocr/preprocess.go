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
}

// DefaultPreprocess is what NewEngine uses: deskew on, Tesseract's Otsu,
// low-confidence lines read a second time.
var DefaultPreprocess = Preprocess{Deskew: true, Thresholding: ThresholdOtsu, Reread: true, Orient: true}

// Second reading of low-confidence lines: each weak word with
// rereadContext words either side (runs merged) is cropped from the
// (deskewed) page with rereadMargin pixels around, the line's full height,
// scaled by rereadScale, given a white border of rereadBorder pixels and
// recognised as a single text line.
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
