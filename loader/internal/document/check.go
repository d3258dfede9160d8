package document

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Plausibility thresholds (Check). A share is over the document's real
// characters plus its U+FFFD; the minimum counts keep a stray symbol in a
// short text from flagging it.
const (
	MaxReplacementShare = 0.05 // U+FFFD
	MaxUnexpectedShare  = 0.05 // controls, private use, noncharacters, letters of mixed-script words
	minSuspectChars     = 8
)

// Check is the plausibility check every landed document goes through
// (extract.Route runs it on each result): it flags, with a reason a person
// understands,
//   - fewer pages than the file declares (Metadata.PageCount),
//   - no text at all although the file has pages,
//   - a high share of U+FFFD (bytes or glyphs that could not be decoded),
//   - a high share of unexpected characters (controls, private-use code
//     points, words mixing scripts: signs of a wrong decoding),
//   - text decoded twice (Mojibake), however small its share.
//
// A reason an extractor already recorded (same page and code) is not added
// twice. Check only adds reviews; it never changes text.
func Check(r *Result) {
	has := map[string]bool{}
	for _, v := range r.AllReviews() {
		has[fmt.Sprint(v.Page, v.Code)] = true
	}
	flag := func(page int, code, format string, args ...any) {
		if !has[fmt.Sprint(page, code)] {
			has[fmt.Sprint(page, code)] = true
			r.Flag(page, code, format, args...)
		}
	}
	if d := r.Metadata.PageCount; d > len(r.Pages) {
		flag(0, ReviewPagesMissing, "the file declares %d pages but only %d could be read; the missing pages are not in the warehouse", d, len(r.Pages))
	}
	if len(r.Pages) == 0 {
		return
	}
	var total Plausibility
	for _, p := range r.Pages {
		total.Add(Measure(p.Text))
	}
	if total.Real == 0 {
		why := ""
		pending := 0
		for _, p := range r.Pages {
			if p.NeedsOCR && p.Method != MethodOCR {
				pending++
			}
		}
		if pending > 0 {
			why = fmt.Sprintf(" (%d page(s) need OCR, which did not run or failed)", pending)
		}
		flag(0, ReviewNoText, "%s%s", noText(r), why)
		return
	}
	if total.Replacement >= minSuspectChars && total.ReplacementShare() > MaxReplacementShare {
		flag(0, ReviewReplacementChars, "%.0f%% of the characters (%d) are U+FFFD: bytes or glyphs that could not be decoded, so words are missing letters",
			100*total.ReplacementShare(), total.Replacement)
	}
	var twice Doubled
	for _, p := range r.Pages {
		twice.Add(Mojibake(p.Text))
	}
	if twice.Suspect() {
		flag(0, ReviewUnexpectedChars, "%d places read like UTF-8 text decoded a second time as Latin-1 or Windows-1252 (mojibake), such as %+q for %q: the characters there (dashes, quotes, accented letters) are garbled",
			twice.Places, twice.Example, twice.Was)
	}
	if total.Unexpected >= minSuspectChars && total.UnexpectedShare() > MaxUnexpectedShare {
		flag(0, ReviewUnexpectedChars, "%.0f%% of the characters (%d) are control or private-use characters or letters of words that mix scripts: the text was probably decoded wrongly",
			100*total.UnexpectedShare(), total.Unexpected)
	}
}

// noText says that no text came out of r in the file's own terms: "the
// file has 1 page(s)" read oddly for a text, XML or spreadsheet file, none
// of which has pages, and said nothing of why.
func noText(r *Result) string {
	if len(r.Pages) > 1 {
		return fmt.Sprintf("the file has %d pages but no text was extracted from any of them", len(r.Pages))
	}
	if r.Pages[0].Method == MethodOCR {
		return "OCR found no text in the file (a picture without words, or words too faint or small to read)"
	}
	if hint, ok := noTextHints[r.Type]; ok {
		return "no text was extracted: " + hint
	}
	return "no text was extracted from the file"
}

// noTextHints say, for the formats whose text is their content, what a
// file of that format holds when no text came out of it.
var noTextHints = map[string]string{
	"text":  "the file holds only white space",
	"xml":   "its elements hold no text (attribute values are not read as text)",
	"html":  "the page has no visible text",
	"xlsx":  "its sheets have no cell with a value",
	"ods":   "its sheets have no cell with a value",
	"csv":   "the file has no cell with a value",
	"tsv":   "the file has no cell with a value",
	"json":  "it holds no string values",
	"docx":  "the document has no text (pictures or shapes only)",
	"odt":   "the document has no text (pictures or shapes only)",
	"pptx":  "the slides have no text (pictures or shapes only)",
	"odp":   "the slides have no text (pictures or shapes only)",
	"odg":   "the drawing's shapes hold no text",
	"odc":   "the chart has no title and no data",
	"epub":  "the book has no text",
	"rtf":   "the document has no text",
	"eml":   "the message has no text",
	"latex": "the source has no text outside commands",
}

// Plausibility counts what Check judges a text by.
type Plausibility struct {
	Real        int // IsRealChar
	Replacement int // U+FFFD
	Unexpected  int // controls, private use, noncharacters, letters of mixed-script words
}

// Add sums o into p.
func (p *Plausibility) Add(o Plausibility) {
	p.Real += o.Real
	p.Replacement += o.Replacement
	p.Unexpected += o.Unexpected
}

// ReplacementShare is U+FFFD over real characters plus U+FFFD.
func (p Plausibility) ReplacementShare() float64 {
	if p.Real+p.Replacement == 0 {
		return 0
	}
	return float64(p.Replacement) / float64(p.Real+p.Replacement)
}

// UnexpectedShare is unexpected characters over real characters.
func (p Plausibility) UnexpectedShare() float64 {
	if p.Real == 0 {
		return 0
	}
	return float64(p.Unexpected) / float64(p.Real)
}

// Measure counts s's real, replacement and unexpected characters.
func Measure(s string) Plausibility {
	var p Plausibility
	for w := range strings.FieldsSeq(s) {
		mixed := mixedScripts(w)
		for _, r := range w {
			if r < utf8.RuneSelf {
				// ASCII, what most text is: real (Fields took the spaces
				// off), unexpected when a control character, as below.
				p.Real++
				if r < 0x20 || r == 0x7f || mixed && r|0x20 >= 'a' && r|0x20 <= 'z' {
					p.Unexpected++
				}
				continue
			}
			switch {
			case r == utf8.RuneError:
				p.Replacement++
				continue
			case !IsRealChar(r):
				continue
			}
			p.Real++
			if unexpected(r) || mixed && unicode.IsLetter(r) {
				p.Unexpected++
			}
		}
	}
	return p
}

// unexpected: a code point no real text carries: C0/C1 controls (other
// than white space, which Fields already split on), private use, surrogate
// halves, noncharacters.
func unexpected(r rune) bool {
	switch {
	case unicode.IsControl(r), unicode.Is(unicode.Co, r), unicode.Is(unicode.Cs, r):
		return true
	case r&0xFFFE == 0xFFFE, r >= 0xFDD0 && r <= 0xFDEF:
		return true
	}
	return false
}

// scriptTables are the scripts whose mixing inside one word is a sign of
// a wrong decoding. Han, Hiragana and Katakana share a group (Japanese
// mixes them within words); Greek stays out (µ, Ω and π are used as
// symbols in Latin text).
var scriptTables = []struct {
	group int
	table *unicode.RangeTable
}{
	{0, unicode.Latin}, {1, unicode.Cyrillic}, {2, unicode.Arabic}, {3, unicode.Hebrew},
	{4, unicode.Han}, {4, unicode.Hiragana}, {4, unicode.Katakana}, {5, unicode.Hangul},
	{6, unicode.Thai}, {7, unicode.Devanagari}, {8, unicode.Armenian}, {9, unicode.Georgian},
}

// mixedScripts reports whether the letters of word w come from two or more
// script groups ("дocтуп" mixes Cyrillic and Latin). Latin within Han or
// kana is usual (brand names in Chinese or Japanese text, which has no
// spaces between words) and does not count.
func mixedScripts(w string) bool {
	var groups uint32
	for _, r := range w {
		if r < 0x80 {
			if r|0x20 >= 'a' && r|0x20 <= 'z' {
				groups |= 1
			}
			continue
		}
		if !unicode.IsLetter(r) {
			continue
		}
		for _, s := range scriptTables {
			if unicode.Is(s.table, r) {
				groups |= 1 << s.group
				break
			}
		}
	}
	if groups&(1<<4) != 0 {
		groups &^= 1
	}
	return groups&(groups-1) != 0
}
