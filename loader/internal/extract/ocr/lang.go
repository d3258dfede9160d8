package ocr

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/textproc"
)

// OSD tells a page's script, not its language: a German or French page is
// Latin script, which eng reads, so before this check it was read with
// eng alone without a word said, its letters with diacritics read as
// others ("für" as "fur", "verfügbar" as "verfugbar", "François" as
// "Francois"). On pages rendered from German and French text (in
// /tmp/formats38, session 35) eng alone read 0 of 18 German words with an
// umlaut and 80 % of the French ones; eng+deu 94 %, eng+fra 96 %.

// accentedLanguages are the Latin-script languages textproc.DetectLanguage
// answers with whose spelling uses letters English lacks, by the code of
// their Tesseract model (Debian tesseract-ocr-CODE) and their name.
// whatlanggo's Norwegian Bokmål (nob) is Tesseract's nor. Indonesian is
// left out: eng reads its letters.
var accentedLanguages = map[string]struct{ model, name string }{
	"spa": {"spa", "Spanish"}, "por": {"por", "Portuguese"}, "fra": {"fra", "French"}, "deu": {"deu", "German"},
	"ita": {"ita", "Italian"}, "nld": {"nld", "Dutch"}, "vie": {"vie", "Vietnamese"}, "tur": {"tur", "Turkish"},
	"pol": {"pol", "Polish"}, "ron": {"ron", "Romanian"}, "hrv": {"hrv", "Croatian"}, "hun": {"hun", "Hungarian"},
	"ces": {"ces", "Czech"}, "swe": {"swe", "Swedish"}, "afr": {"afr", "Afrikaans"}, "fin": {"fin", "Finnish"},
	"dan": {"dan", "Danish"}, "nob": {"nor", "Norwegian"}, "lit": {"lit", "Lithuanian"}, "slv": {"slv", "Slovenian"},
	"lav": {"lav", "Latvian"}, "est": {"est", "Estonian"},
}

// languageMinLetters and languageMinConfidence bound the pages judged: a
// page of fewer letters, or whose language textproc is less sure of
// (placeholder Latin, lorem ipsum, scored French at 0.06 on a scan and
// 0.81 in TestLanguageReview; German and French pages 1.00), is not.
const (
	languageMinLetters    = 200
	languageMinConfidence = 0.9
)

// languageReview is the review reason of a page whose text, as read,
// is in a language with letters English lacks that none of the loaded
// models ("eng+deu", Engine.loaded) is for ("" when the page is English,
// another language a loaded model reads, too short or unclear, or a
// loaded model docket does not know, which may read it).
func languageReview(text, loaded, unloadedNote string) string {
	letters := 0
	for _, r := range text {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters < languageMinLetters {
		return ""
	}
	code, conf := textproc.DetectLanguage(text)
	lang, ok := accentedLanguages[code]
	if !ok || conf < languageMinConfidence {
		return ""
	}
	for _, l := range strings.Split(loaded, "+") {
		if l == lang.model || l == "script/Latin" || !knownModel(l) {
			return ""
		}
	}
	return fmt.Sprintf("%s: the page reads as %s (%s, language identification confidence %.2f), which the OCR languages (%s%s) do not include: its letters with accents or umlauts are likely read as others (\"für\" as \"fur\"); install tesseract-ocr-%s, add %s to ocr.languages in project.yaml and run docket load --reocr",
		document.ReviewOCRLanguageNotListed, lang.name, lang.model, conf, loaded, unloadedNote, lang.model, lang.model)
}

// knownModel reports whether a loaded model is one of scriptLanguages'
// (a model of one's own may read any language).
func knownModel(l string) bool {
	for _, ls := range scriptLanguages {
		for _, x := range ls {
			if x == l {
				return true
			}
		}
	}
	return false
}
