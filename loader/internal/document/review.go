package document

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Review codes: why a landed document or page should be looked at by a
// person. The code is a stable key for queries; Review.Message says the
// same in plain words with the figures behind it.
const (
	ReviewPagesMissing         = "pages_missing"           // fewer pages extracted than the file declares
	ReviewPageUnreadable       = "page_unreadable"         // a page could not be read (damaged content)
	ReviewNoText               = "no_text"                 // the file has pages but no text came out
	ReviewReplacementChars     = "replacement_chars"       // a high share of U+FFFD (undecodable bytes or unmapped glyphs)
	ReviewUnexpectedChars      = "unexpected_chars"        // control, private-use or mixed-script characters: likely mojibake
	ReviewLowOCRConfidence     = "low_ocr_confidence"      // OCR's mean word confidence under ocr.review_below
	ReviewOCRNoText            = "ocr_found_no_text"       // an OCR'd page gave no words
	ReviewScriptNotInstalled   = "script_not_installed"    // OCR saw a script no installed model reads
	ReviewOCRLanguageNotListed = "ocr_language_not_listed" // an OCR'd page reads as a language with accented letters none of the loaded models is for
	ReviewRepaired             = "repaired"                // the file was damaged and repaired on reading
	ReviewFontUnreadable       = "font_unreadable"         // a font could not be loaded: text set in it was read with a stand-in and may be garbled
	ReviewTruncated            = "truncated"               // text over loader.max_page_chars / max_doc_chars was cut
	ReviewMetadataUnreadable   = "metadata_unreadable"     // the file's metadata part is damaged: title, author, dates are missing
	ReviewMembersUnreadable    = "members_unreadable"      // files inside an archive could not be read (damaged, encrypted): they did not land
	ReviewIncludesMissing      = "includes_missing"        // a LaTeX document came without its folder (an attachment): the files it includes are missing
	ReviewFrameset             = "frameset"                // an HTML frameset page: what a browser shows is in its frames' own files; its text is its <noframes> alternative
)

// Review is one reason a person should look at a document (Page 0) or at
// one of its pages. The warehouse lands them in staging.reviews.
type Review struct {
	Page    int    // 1-based page number; 0 for the whole document
	Code    string // one of the Review* codes
	Message string // what is wrong, in plain words
}

// Flag records a review reason. A page-level one (page > 0) also becomes
// the page's ReviewReason ("code: message") when the page has none yet, so
// page-level queries see it too.
func (r *Result) Flag(page int, code, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.Reviews = append(r.Reviews, Review{Page: page, Code: code, Message: msg})
	if page <= 0 {
		return
	}
	for i := range r.Pages {
		if r.Pages[i].Number == page && r.Pages[i].ReviewReason == "" {
			r.Pages[i].ReviewReason = code + ": " + msg
		}
	}
}

// Flagged reports whether r (nil: no result) has a review reason: a
// Review, or a page's ReviewReason.
func (r *Result) Flagged() bool {
	if r == nil {
		return false
	}
	return len(r.Reviews) > 0 || slices.ContainsFunc(r.Pages, func(p Page) bool { return p.ReviewReason != "" })
}

// AllReviews is r.Reviews plus the review reasons set directly on pages
// (Page.ReviewReason, "code: message" or a bare code) that no Review of the
// same page and code carries already, in page order (document-level first).
func (r *Result) AllReviews() []Review {
	out := append([]Review(nil), r.Reviews...)
	has := map[[2]string]bool{}
	for _, v := range r.Reviews {
		has[[2]string{fmt.Sprint(v.Page), v.Code}] = true
	}
	for _, p := range r.Pages {
		if p.ReviewReason == "" {
			continue
		}
		code, msg, ok := strings.Cut(p.ReviewReason, ": ")
		if !ok {
			msg = strings.ReplaceAll(code, "_", " ")
		}
		if !has[[2]string{fmt.Sprint(p.Number), code}] {
			out = append(out, Review{Page: p.Number, Code: code, Message: msg})
		}
	}
	sortReviews(out)
	return out
}

func sortReviews(rs []Review) {
	// insertion sort: a document has a handful of reviews
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && rs[j].Page < rs[j-1].Page; j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
}

// IsRealChar is docket's one definition of a real character: anything but
// white space and U+FFFD (a byte or glyph that could not be decoded).
// Page.CharCount, the PDF OCR routing and the plausibility check count
// with it.
func IsRealChar(r rune) bool {
	return r != utf8.RuneError && !unicode.IsSpace(r)
}

// RealChars counts the real characters (IsRealChar) of s.
func RealChars(s string) int {
	n := 0
	for _, r := range s {
		if IsRealChar(r) {
			n++
		}
	}
	return n
}
