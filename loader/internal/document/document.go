// Package document is docket's element model: the shared shape every
// extractor returns and the warehouse lands. It takes nothing and does
// nothing; it only names things.
//
// Offsets: CharStart/CharEnd are 0-based Unicode code point offsets into the
// page's Text (DuckDB's substr counts code points, 1-based:
// substr(text, char_start+1, char_end-char_start)).
package document

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
)

// Category is the type of an element, following Unstructured's names.
type Category string

const (
	Title             Category = "Title"
	NarrativeText     Category = "NarrativeText"
	ListItem          Category = "ListItem"
	TableCat          Category = "Table"
	Header            Category = "Header"
	Footer            Category = "Footer"
	PageNumber        Category = "PageNumber"
	Caption           Category = "Caption"
	ImageCat          Category = "Image"
	UncategorizedText Category = "UncategorizedText"
)

// Page methods.
const (
	MethodTextLayer = "text_layer" // PDF text layer (MuPDF)
	MethodOCR       = "ocr"        // Tesseract
	MethodNative    = "native"     // the format itself carries text (HTML, DOCX, text…)
	MethodNone      = "none"       // nothing extracted yet (needs_ocr pending)
)

// BBox is a box in the page's coordinate space (PDF points for PDFs, pixels
// for images), origin top-left, X0<X1, Y0<Y1. A zero box means "unknown".
type BBox struct {
	X0, Y0, X1, Y1 float64
}

// Union is the smallest box holding b and o. Plain comparisons: boxes hold
// no NaN, and math.Min/Max's NaN and signed-zero handling made unions a
// hot spot of PDF word and table building.
func (b BBox) Union(o BBox) BBox {
	if o.X0 < b.X0 {
		b.X0 = o.X0
	}
	if o.Y0 < b.Y0 {
		b.Y0 = o.Y0
	}
	if o.X1 > b.X1 {
		b.X1 = o.X1
	}
	if o.Y1 > b.Y1 {
		b.Y1 = o.Y1
	}
	return b
}

// Page is one page (PDF page, slide, sheet, or the single page of a flat
// format) with its text in reading order.
type Page struct {
	Number        int     // 1-based
	Width, Height float64 // points or pixels; 0 when the format has no page size
	Text          string  // reading-order text; empty while NeedsOCR and not OCR'd
	Method        string  // MethodTextLayer, MethodOCR, MethodNative, MethodNone
	NeedsOCR      bool    // the text layer was absent or unusable
	OCRConfidence float64 // mean word confidence 0..100 when Method == ocr, else 0
	ReviewReason  string  // non-empty when a person should look at this page (e.g. low OCR confidence)
	CharCount     int     // real characters (IsRealChar) the format's own text had (PDF: the text layer)
	UnmappedChars int     // glyphs of the text layer without a Unicode mapping (U+FFFD)
	ClippedChars  int     // PDF: characters of the text layer (spaces left out) the page's clip hid, not in Text (a cell's overflow, clipped-away copies)
	ScanDPI       int     // PDF pages needing OCR: the resolution that renders the page's largest image at its own pixels (0: none)
}

// Element is one typed block on a page.
type Element struct {
	Page      int // 1-based page number
	Seq       int // reading order within the document, 0-based
	Category  Category
	Text      string
	BBox      BBox
	CharStart int    // into Page.Text, code points
	CharEnd   int    // exclusive
	Level     int    // heading level for Title (1 = top), list depth for ListItem, else 0
	Section   string // text of the Title that opened the section this element is in
	TableSeq  int    // for Category Table: index into Result.Tables, else -1
}

// Table is one table as rows of cell text.
type Table struct {
	Page   int
	Seq    int // 0-based within the document
	BBox   BBox
	Header []string   // may be empty when no header row was recognised
	Rows   [][]string // body rows (header excluded)
	// Spans are the cells covering more than one grid position, their
	// text at (Row, Col) and the positions they cover empty. Row counts
	// the header row first when there is one (0 is the header).
	Spans []CellSpan
	// Continues marks a part of a table broken across pages: this table
	// carries on the document's previous table (Seq-1), which ends its
	// page, from the top of the next (the header repeated or not). The
	// parts stay separate tables, each on its page; Continues joins them.
	Continues bool
}

// CellSpan is a table cell covering Rows × Cols grid positions from (Row, Col).
type CellSpan struct {
	Row, Col   int
	Rows, Cols int
}

// OCRWord is one word recognised by OCR, with its box in image pixels.
type OCRWord struct {
	Page       int
	Seq        int // 0-based within the page, in reading order
	Text       string
	BBox       BBox
	Confidence float64 // 0..100
	Block      int
	Paragraph  int
	Line       int
}

// Metadata is per-document information from the format itself.
type Metadata struct {
	Title     string            `json:"title,omitempty"`
	Author    string            `json:"author,omitempty"`
	Created   string            `json:"created,omitempty"`  // RFC 3339 when parseable, else as found
	Modified  string            `json:"modified,omitempty"` // RFC 3339 when parseable, else as found
	Language  string            `json:"language,omitempty"` // hint from the document (html lang, dc:language)
	PageCount int               `json:"page_count,omitempty"`
	Extra     map[string]string `json:"extra,omitempty"` // format-specific (email from/to/cc/subject, …)
}

// ExtraLaTeXIncludes is the Metadata.Extra key under which a LaTeX
// document read from a folder lists the files its \input/\include
// commands named there (read, refused or not found; JoinIncludes): the
// main file's bytes alone do not decide its text, and the load extracts
// it again when one of them changes, appears or goes.
const ExtraLaTeXIncludes = "latex_includes"

// ExtraLaTeXSources is the Metadata.Extra key of the sha256 over the
// files a LaTeX document read from a folder named (SourcesDigest), set
// when it named any: its text depends on their bytes, so the load keys
// its content by its main file's hash and this digest, not by the main
// file's bytes alone (two folders with the same main.tex and different
// chapters shared one content).
const ExtraLaTeXSources = "latex_sources_sha256"

// JoinIncludes is the ExtraLaTeXIncludes value of a set of slash paths
// (relative to the document's folder): sorted, one a line; "" for none.
func JoinIncludes[V any](set map[string]V) string {
	return strings.Join(sortedKeys(set), "\n")
}

// SourcesDigest is the ExtraLaTeXSources value of the files a LaTeX
// document named, by slash path, with the sha256 of the bytes read from
// each ("" for a file not read: refused or not found).
func SourcesDigest(read map[string]string) string {
	h := sha256.New()
	for _, p := range sortedKeys(read) {
		fmt.Fprintf(h, "%q %q\n", p, read[p])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// SHA256 is the hex sha256 of data.
func SHA256(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// SplitIncludes reads an ExtraLaTeXIncludes value.
func SplitIncludes(v string) []string {
	if v == "" {
		return []string{}
	}
	return strings.Split(v, "\n")
}

// Attachment is an embedded file (e-mail attachment, archive member) that the
// loader lands as a child document with its own pipeline.
type Attachment struct {
	Name string
	Data []byte
}

// Result is what an extractor returns for one document.
type Result struct {
	Type             string // detected type key (see package detect), e.g. "pdf"
	MIME             string
	Metadata         Metadata
	Pages            []Page
	Elements         []Element
	Tables           []Table
	Words            []OCRWord
	Attachments      []Attachment
	Warnings         []string // non-fatal problems (e.g. MuPDF "repairing PDF")
	Reviews          []Review // reasons a person should look at the document or a page (see Flag)
	ExtractorVersion string
}

// Error kinds: why a document was quarantined.
const (
	KindUnsupported = "unsupported_type"
	KindEncrypted   = "encrypted"
	KindCorrupt     = "corrupt"
	KindEmpty       = "empty"
	KindTooLarge    = "too_large"
	KindTimeout     = "timeout"
	KindCrash       = "crash"
	KindTooManyPage = "too_many_pages"
	KindUndecodable = "undecodable"
	KindInternal    = "internal"
	// KindUnreadable: the file could not be read (permission denied, an
	// I/O error); transient, retried by every load.
	KindUnreadable = "unreadable"
)

// Error is an extraction failure a person can understand. Kind is one of
// the Kind* constants; Msg says what happened in plain words.
type Error struct {
	Kind string
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Kind, e.Msg) }

// Errorf builds an *Error.
func Errorf(kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// Options are the extraction settings a worker receives.
type Options struct {
	MinCharsPerPage int      // below this a PDF page needs OCR
	MaxPages        int      // more pages than this: quarantined too_many_pages (0 = no limit)
	OCR             bool     // run OCR on pages that need it and on images
	OCRLanguages    []string // tesseract languages, e.g. ["eng"]
	OCRDPI          int      // render resolution for OCR
	OCRMinWordConf  float64  // words under this stay out of page text
	OCRReviewBelow  float64  // pages under this mean confidence get a review reason
	MaxSheetRows    int      // spreadsheets: rows per sheet kept
	MaxAttachDepth  int      // e-mail attachments recursion limit
	FollowSymlinks  bool     // loader.symlinks: follow (a LaTeX \input file that is a link is read)
	// NoFolder: the file is a private copy of the document's bytes (an
	// attachment, a file that changed while the load read it): nothing
	// beside it is the document's, so a LaTeX \input/\include is not read
	// (ReviewIncludesMissing).
	NoFolder bool
	// archives (zip, tar, tar.gz, gz): members and total expanded bytes
	// over which the archive is quarantined too_large (0 = the defaults)
	MaxArchiveMembers int
	MaxArchiveBytes   int64
	MaxPageChars      int // longer pages are split (a one-page text) or cut, with a review reason (0 = no limit)
	MaxDocChars       int // text past this many characters per document is dropped, with a review reason (0 = no limit)
	MaxPageTokens     int // PDF pages whose content streams hold more tokens are not read (page_unreadable) (0 = no limit)
	MaxImagePixels    int // larger images are quarantined too_large, larger PDF pages OCR'd at a lower resolution (0 = no limit)
}
