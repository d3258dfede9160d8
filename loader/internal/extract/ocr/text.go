package ocr

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
)

// PageResult is what OCR of one page produces.
type PageResult struct {
	Page              int // 1-based page number when known (OCRPDFPages, images), else 0
	Width, Height     int // image size in pixels; word boxes are in these pixels
	DPI               int // resolution the image was rendered or scanned at
	WidthPt, HeightPt float64
	// Words are all words found, in reading order, including those under
	// the minimum confidence. Word.Page is set when Page is.
	Words []document.OCRWord
	// Text is the page text in reading order without low-confidence words:
	// lines joined by "\n", paragraphs separated by "\n\n".
	Text string
	// Paragraphs are the paragraphs of Text with their boxes and code point
	// offsets into Text.
	Paragraphs     []Paragraph
	MeanConfidence float64 // mean of all word confidences, 0 when no words
	ReviewReason   string  // non-empty when MeanConfidence < opts.OCRReviewBelow
	SkewAngle      float64 // degrees the page was rotated by deskewing
	Rotated        int     // clockwise degrees the page was turned before recognition (0, 90, 180, 270), by OSD or by trial readings when OSD was unsure
	Script         string  // the script OSD saw ("Latin", "Arabic", ...), "" when it could not tell
}

// Paragraph is one OCR paragraph of a page's text.
type Paragraph struct {
	Text      string
	BBox      document.BBox // union of the boxes of its kept words, pixels
	CharStart int           // code points into PageResult.Text
	CharEnd   int           // exclusive
}

// Assemble turns the words of one page into a PageResult: words in reading
// order (renumbered), rebuilt text and paragraphs, mean confidence and the
// review reason. It does not fill the size fields.
func Assemble(words []document.OCRWord, opts document.Options) PageResult {
	words = SortWords(words)
	var res PageResult
	res.Words = words
	if len(words) > 0 {
		var sum float64
		for _, w := range words {
			sum += w.Confidence
		}
		res.MeanConfidence = sum / float64(len(words))
		if res.MeanConfidence < opts.OCRReviewBelow {
			res.ReviewReason = LowConfidenceReason(res.MeanConfidence, opts.OCRReviewBelow)
		}
	}
	res.Text, res.Paragraphs = Rebuild(words, opts.OCRMinWordConf)
	return res
}

// LowConfidenceReason is a page's low_ocr_confidence review reason: it
// said "mean 51.5 < 70", which told a reader neither of what nor what to
// do.
func LowConfidenceReason(mean, below float64) string {
	return fmt.Sprintf("%s: OCR read this page with a mean word confidence of %.1f out of 100, under ocr.review_below (%g): words may be misread; compare the text with the page",
		document.ReviewLowOCRConfidence, mean, below)
}

// SortWords returns a copy of words in reading order: by block, paragraph
// and line index (page-wide counters in Tesseract's reading order), and
// within a line by Seq (the recognizer's order, which also holds for
// right-to-left scripts), with Seq renumbered 0.. afterwards.
func SortWords(words []document.OCRWord) []document.OCRWord {
	out := slices.Clone(words)
	slices.SortStableFunc(out, func(a, b document.OCRWord) int {
		return cmp.Or(cmp.Compare(a.Block, b.Block), cmp.Compare(a.Paragraph, b.Paragraph),
			cmp.Compare(a.Line, b.Line), cmp.Compare(a.Seq, b.Seq), cmp.Compare(a.BBox.X0, b.BBox.X0))
	})
	for i := range out {
		out[i].Seq = i
	}
	return out
}

// Rebuild builds page text from words already in reading order (see
// SortWords): words of a line joined by a space, lines by "\n", paragraphs
// (and blocks) separated by "\n\n". Words with Confidence < minConf are left
// out; lines and paragraphs left empty disappear.
func Rebuild(words []document.OCRWord, minConf float64) (string, []Paragraph) {
	var sb strings.Builder
	var paras []Paragraph
	pos := 0 // code points written so far
	write := func(s string) {
		sb.WriteString(s)
		pos += utf8.RuneCountInString(s)
	}
	var cur *Paragraph
	var curText strings.Builder
	curBlock, curPara, curLine := -1, -1, -1
	flush := func() {
		if cur == nil {
			return
		}
		cur.Text = curText.String()
		cur.CharEnd = pos
		paras = append(paras, *cur)
		cur = nil
		curText.Reset()
	}
	for _, w := range words {
		if w.Confidence < minConf || strings.TrimSpace(w.Text) == "" {
			continue
		}
		switch {
		case cur == nil || w.Block != curBlock || w.Paragraph != curPara:
			flush()
			if pos > 0 {
				write("\n\n")
			}
			cur = &Paragraph{CharStart: pos, BBox: w.BBox}
		case w.Line != curLine:
			write("\n")
			curText.WriteString("\n")
		default:
			write(" ")
			curText.WriteString(" ")
		}
		curBlock, curPara, curLine = w.Block, w.Paragraph, w.Line
		write(w.Text)
		curText.WriteString(w.Text)
		cur.BBox = cur.BBox.Union(w.BBox)
	}
	flush()
	return sb.String(), paras
}
