package pdf

/*
#cgo LDFLAGS: -Wl,--wrap=FT_Get_Name_Index -Wl,--wrap=pdf_load_image
#include <stdlib.h>
#include "walk.h"

extern int dk_names_on;
extern long dk_names_hits;
static long dk_names_read_hits(void) { return __atomic_load_n(&dk_names_hits, __ATOMIC_RELAXED); }
*/
import "C"

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/docket-dev/docket/loader/internal/document"

	// go-fitz links MuPDF 1.24.9's static libraries; walk.c calls into them.
	_ "github.com/gen2brain/go-fitz"
)

// MuPDFVersion is the MuPDF release the declarations in mupdf_min.h match.
const MuPDFVersion = "1.24.9"

// maxStore bounds MuPDF's resource cache per open document.
const maxStore = 64 << 20

// stextFlags: ligatures expanded (ﬁ → fi) and odd whitespace normalized, so
// the text is searchable; images kept as blocks (Image elements, OCR
// routing); text outside the page box dropped, like PyMuPDF's default.
const stextFlags = C.FZ_STEXT_PRESERVE_IMAGES | C.FZ_STEXT_MEDIABOX_CLIP

// Font is one font used on a page.
type Font struct {
	Name               string // as in the PDF, subset prefix included ("ABCDEF+Helvetica-Bold")
	Bold, Italic, Mono bool
}

// Char is one character of the text layer, coordinates in points with the
// origin at the page's top-left.
type Char struct {
	Rune             rune
	BBox             document.BBox
	OriginX, OriginY float64 // pen position on the baseline
	Size             float64 // font size
	Font             int     // index into Layout.Fonts
}

// Line is a run of characters on one baseline (MuPDF's stext line).
type Line struct {
	Text      string
	BBox      document.BBox
	FontSize  float64 // dominant size of its characters
	Bold      bool    // most of its visible characters are in a bold font
	Font      int     // dominant font, index into Layout.Fonts (-1 if none)
	Dir       [2]float64
	RealChars int    // document.IsRealChar
	BadChars  int    // U+FFFD (glyphs without a Unicode mapping)
	Words     []Word // only filled with Detail Words or Chars
	Chars     []Char // only filled with Detail Chars
}

// Word is a run of a line's characters without a space or a wide gap.
type Word struct {
	Text       string
	BBox       document.BBox
	Size       float64 // largest font size of its characters
	Bold       bool    // most of its characters are in a bold font
	start, end int     // byte range in the line's text
}

// Block is a MuPDF stext block: a group of lines, or an image.
type Block struct {
	Image          bool
	BBox           document.BBox
	Lines          []Line
	ImageW, ImageH int // image blocks: the image's size in pixels
}

// Vector is one straight piece of the page's drawing, top-left origin:
// a stroked horizontal or vertical segment widened by its line width
// (Fill false), or the box of a filled shape made of straight
// axis-aligned edges (Fill true: a thin one is a rule, a larger one a
// cell background or a frame), or the box of a whole path with slanted or
// curved parts (Curve true: plot lines, pie slices, markers — a sign of a
// chart, not a table).
type Vector struct {
	BBox  document.BBox
	Fill  bool
	Curve bool
}

// Layout is the text layer of one page as MuPDF sees it, in content order.
type Layout struct {
	Number        int // 1-based
	Width, Height float64
	Blocks        []Block
	Fonts         []Font
	Vectors       []Vector // only filled when asked for (Doc.PageWith)
	RealChars     int
	BadChars      int
	Tokens        int // content-stream tokens MuPDF interpreted (its cookie's progress)
	// LazyImages counts the page's JPEG 2000 images whose pixels were not
	// decoded (images.c): their blocks are there, but an image whose data
	// is corrupt past its header would have failed to load (see
	// Doc.PageDecoded).
	LazyImages int
	// ClipHidden counts the characters (spaces left out) the page drew
	// where its clip hides them (a spreadsheet cell's overflow under the
	// next cell, clipped-away copies): they are not in its Blocks, and a
	// reader of the page does not see them either.
	ClipHidden int
}

// Doc is an open PDF (or another format MuPDF reads). It is not safe for
// concurrent use; open one Doc per goroutine.
type Doc struct {
	ctx   *C.fz_context
	d     *C.dk_doc
	p     *C.dk_page
	data  unsafe.Pointer // C copy of the bytes for OpenBytes
	size  int            // bytes at data
	pages int
	// rebuilt is the number of pages of the page tree docket rebuilt
	// from the file's page objects when MuPDF found none (withPageTree);
	// the file's own bytes are then data's first origSize.
	rebuilt  int
	origSize int
	// rebuiltLoose of them no surviving node of the lost tree listed.
	rebuiltLoose int
	// declared is the /Count and the page objects a file opened by path
	// declares, when the scan that rebuilt its page tree read them (see
	// checkDeclared); nil when not read yet.
	declared *[2]int
	// path is the file a Doc too large to be held in memory was opened
	// by ("" for one in memory).
	path string
	// MaxTokens bounds the content-stream tokens interpreted for one
	// page, a glyph shown counting 16 (0: no bound); a page over it is
	// not read (see PageWith).
	MaxTokens int
	// scratch, when set (reusePages), holds the Line and Word arrays of
	// the last page PageWith returned, reused for the next page.
	scratch *pageScratch
}

// maxInMemory: files up to this size are read whole before MuPDF opens
// them. MuPDF's file stream reads through a 4 KB buffer and seeks for
// every object it looks up: on docket's PDF corpus that was 76k read and
// 39k lseek calls per load, about a tenth of the CPU time the workers
// spent in the kernel; from memory there are none. Bigger files are
// opened by path, so a huge PDF does not cost its size in memory.
// Such a file's declared page count is read by streaming it
// (declaredPagesFile), and its lost page tree is rebuilt from a streamed
// scan too (pageTreeFile, opened with dk_open_tail). A variable for
// tests.
var maxInMemory int64 = 256 << 20

// Open opens a document file. Errors are *document.Error with Kind
// encrypted, corrupt or empty.
func Open(path string) (*Doc, error) {
	if doc, ok, err := openInMemory(path); ok {
		return doc, err
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	doc, lost, err := open(cpath, nil, 0, path)
	if lost && err != nil {
		// The file's page tree is lost: open it again as if a tree
		// rebuilt from its page objects followed it (the file streamed,
		// as withPageTree does for a file in memory).
		if ft, terr := pageTreeFile(path, scanChunk); terr == nil && ft.kids > 0 {
			if fixed, err2 := openTail(cpath, ft.tail, path); err2 == nil {
				fixed.rebuilt, fixed.rebuiltLoose = ft.kids, ft.loose
				fixed.declared = &[2]int{ft.count, ft.objects}
				doc, err = fixed, nil
			}
		}
	}
	if doc != nil {
		doc.path = path
	}
	return doc, err
}

// openTail opens the PDF at cpath as if tail followed its bytes
// (dk_open_tail: the file read through a window).
func openTail(cpath *C.char, tail []byte, label string) (*Doc, error) {
	ctx := getCtx()
	if ctx == nil {
		return nil, document.Errorf(document.KindInternal, "cannot create a MuPDF context: the linked MuPDF is not %s", MuPDFVersion)
	}
	d := (*C.dk_doc)(C.calloc(1, C.size_t(unsafe.Sizeof(C.dk_doc{}))))
	rc := C.dk_open_tail(d, ctx, cpath, (*C.uchar)(C.CBytes(tail)), C.size_t(len(tail)))
	doc, _, err := opened(&Doc{d: d, ctx: ctx}, rc, label)
	return doc, err
}

// openInMemory reads a file of up to maxInMemory bytes into C memory and
// opens it there (the path, as the magic, names the format as it would
// for a file). ok is false when the file should be opened by path.
func openInMemory(path string) (doc *Doc, ok bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, nil // opening by path reports it
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 || st.Size() > maxInMemory {
		return nil, false, nil
	}
	n := int(st.Size())
	buf := C.malloc(C.size_t(n))
	if buf == nil {
		return nil, false, nil
	}
	if _, err := io.ReadFull(f, unsafe.Slice((*byte)(buf), n)); err != nil {
		C.free(buf)
		return nil, false, nil
	}
	doc, err = openC(buf, n, path)
	return doc, true, err
}

// openC opens a document held in C memory from C.malloc, which the Doc
// then owns (freed by Close, or here when opening fails).
func openC(buf unsafe.Pointer, n int, magic string) (*Doc, error) {
	cmagic := C.CString(magic)
	defer C.free(unsafe.Pointer(cmagic))
	doc, lost, err := open(cmagic, buf, n, magic)
	if err != nil {
		if lost {
			// The file's page tree is lost: open it again with one
			// rebuilt from its page objects (withPageTree).
			if fixed, kids, loose := withPageTree(unsafe.Slice((*byte)(buf), n)); kids > 0 {
				fbuf := C.CBytes(fixed)
				if doc, _, err2 := open(cmagic, fbuf, len(fixed), magic); err2 == nil {
					C.free(buf)
					doc.data, doc.size = fbuf, len(fixed)
					doc.rebuilt, doc.rebuiltLoose, doc.origSize = kids, loose, n
					return doc, nil
				}
				C.free(fbuf)
			}
		}
		C.free(buf)
		return nil, err
	}
	doc.data, doc.size = buf, n
	return doc, nil
}

// OpenBytes opens a document held in memory; magic is a file name or MIME
// type used when the content itself does not say ("application/pdf").
func OpenBytes(data []byte, magic string) (*Doc, error) {
	if len(data) == 0 {
		return nil, document.Errorf(document.KindEmpty, "zero bytes")
	}
	return openC(C.CBytes(data), len(data), magic)
}

// open opens a document; lost reports a PDF that opened without a page
// MuPDF could find although it reported damage (its page tree is lost).
func open(name *C.char, data unsafe.Pointer, n int, label string) (doc *Doc, lost bool, err error) {
	ctx := getCtx()
	if ctx == nil {
		return nil, false, document.Errorf(document.KindInternal, "cannot create a MuPDF context: the linked MuPDF is not %s", MuPDFVersion)
	}
	d := (*C.dk_doc)(C.calloc(1, C.size_t(unsafe.Sizeof(C.dk_doc{}))))
	var rc C.int
	if data != nil {
		rc = C.dk_open(d, ctx, nil, (*C.uchar)(data), C.size_t(n), name)
	} else {
		rc = C.dk_open(d, ctx, name, nil, 0, nil)
	}
	return opened(&Doc{d: d, ctx: ctx}, rc, label)
}

// opened finishes opening doc after dk_open (or dk_open_tail) returned
// rc: the error, or the page count; lost as for open.
func opened(doc *Doc, rc C.int, label string) (*Doc, bool, error) {
	d := doc.d
	switch rc {
	case 0:
	case 2:
		msg := C.GoString(&d.err[0])
		doc.Close()
		return nil, false, document.Errorf(document.KindCorrupt, "MuPDF cannot open %s: %s", label, msg)
	case 3:
		doc.Close()
		return nil, false, document.Errorf(document.KindEncrypted, "%s is password-protected", label)
	}
	np := int(C.dk_count_pages(d))
	if np < 0 {
		msg := C.GoString(&d.err[0])
		doc.Close()
		return nil, true, document.Errorf(document.KindCorrupt, "MuPDF cannot count the pages of %s: %s", label, msg)
	}
	if np == 0 {
		ws := doc.Warnings()
		doc.Close()
		if len(ws) > 0 { // repaired and still nothing: truncated or broken
			return nil, true, document.Errorf(document.KindCorrupt, "%s is broken, no page could be recovered (MuPDF: %s)", label, ws[0])
		}
		return nil, false, document.Errorf(document.KindEmpty, "%s has no pages", label)
	}
	doc.pages = np
	doc.p = (*C.dk_page)(C.calloc(1, C.size_t(unsafe.Sizeof(C.dk_page{}))))
	return doc, false, nil
}

// Close frees the document. It is safe to call twice.
func (d *Doc) Close() {
	if d.p != nil {
		C.dk_page_free(d.p)
		C.free(unsafe.Pointer(d.p))
		d.p = nil
	}
	if d.d != nil {
		C.dk_close(d.d)
		C.free(unsafe.Pointer(d.d))
		d.d = nil
	}
	if d.ctx != nil {
		putCtx(d.ctx)
		d.ctx = nil
	}
	if d.data != nil {
		C.free(d.data)
		d.data = nil
	}
}

// NumPages is the page count.
func (d *Doc) NumPages() int { return d.pages }

// logClassMax is how many of damageClasses walk.c's log can keep the
// first message past its cap of (TestDamageClassesFitTheLog).
const logClassMax = C.DK_CLASS_MAX

// Warnings returns and clears what MuPDF reported since the last call
// (e.g. "repairing PDF document"); repeated messages are MuPDF's own
// "... (N times)" summaries.
func (d *Doc) Warnings() []string {
	C.fz_flush_warnings(d.ctx)
	l := &d.d.log
	if l.len == 0 && l.dropped == 0 && l.nclass == 0 {
		return nil
	}
	s := C.GoStringN(l.buf, C.int(l.len))
	var out []string
	for _, w := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if w = strings.TrimSpace(w); w != "" {
			out = append(out, w)
		}
	}
	// past the cap: how many of each damage class (the first is kept)
	var counts []string
	for i := 0; i < int(l.nclass); i++ {
		counts = append(counts, fmt.Sprintf("%s: %d", kindName(out, &damageClasses[l.cls[i]]), int(l.ncls[i])))
	}
	switch {
	case len(counts) > 0:
		out = append(out, fmt.Sprintf("%d more MuPDF messages dropped; of the messages past the cap that say text may be missing or wrong, the first of each kind is kept above (%s)", int(l.dropped), strings.Join(counts, ", ")))
	case l.dropped > 0:
		out = append(out, fmt.Sprintf("%d more MuPDF messages dropped", int(l.dropped)))
	}
	C.dk_log_reset(l)
	return out
}

// Metadata returns title, author, dates and page count.
func (d *Doc) Metadata() document.Metadata {
	m := document.Metadata{PageCount: d.pages}
	m.Title = d.meta("info:Title")
	m.Author = d.meta("info:Author")
	m.Created = pdfDate(d.meta("info:CreationDate"))
	m.Modified = pdfDate(d.meta("info:ModDate"))
	extra := map[string]string{}
	for _, k := range []string{"format", "encryption", "info:Subject", "info:Keywords", "info:Creator", "info:Producer"} {
		if v := d.meta(k); v != "" {
			extra[strings.ToLower(strings.TrimPrefix(k, "info:"))] = v
		}
	}
	if len(extra) > 0 {
		m.Extra = extra
	}
	return m
}

func (d *Doc) meta(key string) string {
	ckey := C.CString(key)
	defer C.free(unsafe.Pointer(ckey))
	var buf [1024]C.char
	n := C.dk_metadata(d.d, ckey, &buf[0], C.int(len(buf)))
	if n <= 0 {
		return ""
	}
	s := C.GoString(&buf[0])
	s = strings.TrimRight(s, "\x00")
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strings.TrimSpace(s)
}

// ImageCover is the share of the page covered by image blocks (0..1,
// overlaps counted twice, capped at 1).
func (l *Layout) ImageCover() float64 {
	if l.Width <= 0 || l.Height <= 0 {
		return 0
	}
	a := 0.0
	for _, b := range l.Blocks {
		if !b.Image {
			continue
		}
		w := min(b.BBox.X1, l.Width) - max(b.BBox.X0, 0)
		h := min(b.BBox.Y1, l.Height) - max(b.BBox.Y0, 0)
		if w > 0 && h > 0 {
			a += w * h
		}
	}
	return min(1, a/(l.Width*l.Height))
}

// ScanDPI is the resolution at which rendering the page gives its largest
// image its own pixels (an image-only page's scan), 0 when the page has
// no image. OCR renders such pages at it instead of a computed one, so
// the scan is not resampled.
func (l *Layout) ScanDPI() int {
	best, area := 0.0, 0.0
	for _, b := range l.Blocks {
		w, h := b.BBox.X1-b.BBox.X0, b.BBox.Y1-b.BBox.Y0
		if !b.Image || b.ImageW <= 0 || b.ImageH <= 0 || w <= 0 || h <= 0 || w*h <= area {
			continue
		}
		area = w * h
		iw, ih := float64(b.ImageW), float64(b.ImageH)
		if (iw > ih) != (w > h) { // placed turned by 90°
			iw, ih = ih, iw
		}
		best = max(iw*72/w, ih*72/h)
	}
	return int(math.Round(best))
}

func bbox(x0, y0, x1, y1 float64) document.BBox {
	return document.BBox{X0: x0, Y0: y0, X1: x1, Y1: y1}
}

// boldName catches bold fonts whose flags do not say so.
func boldName(name string) bool {
	if i := strings.IndexByte(name, '+'); i >= 0 {
		name = name[i+1:]
	}
	n := strings.ToLower(name)
	for _, w := range []string{"bold", "black", "heavy", "semibold", "demi"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// checkCtx is a small helper so long documents stop between pages.
func checkCtx(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("pdf extraction stopped: %w", err)
	}
	return nil
}

var pageFlags = stextFlags

// nameIndex turns the glyph-name index of ftnames.c on or off and returns
// how many lookups it has answered so far; tests extract with and without
// it. Not safe while documents are being read.
func nameIndex(on bool) (hits int64) {
	C.dk_names_on = 0
	if on {
		C.dk_names_on = 1
	}
	return int64(C.dk_names_read_hits())
}

// Contexts are pooled: creating one per document reloads FreeType and the
// built-in fonts, which costs more than extracting a short PDF. A context
// serves one document at a time; at most maxIdle wait here.
var (
	ctxMu   sync.Mutex
	ctxIdle []*C.fz_context
)

const maxIdle = 4

func getCtx() *C.fz_context {
	ctxMu.Lock()
	if n := len(ctxIdle); n > 0 {
		c := ctxIdle[n-1]
		ctxIdle = ctxIdle[:n-1]
		ctxMu.Unlock()
		return c
	}
	ctxMu.Unlock()
	return C.dk_ctx_new(maxStore)
}

func putCtx(c *C.fz_context) {
	ctxMu.Lock()
	if len(ctxIdle) < maxIdle {
		ctxIdle = append(ctxIdle, c)
		c = nil
	}
	ctxMu.Unlock()
	if c != nil {
		C.dk_ctx_drop(c)
	}
}

// bytesPerToken bounds a page's inflated content streams at this many
// bytes per token of MaxTokens (real content averages 3 to 5 bytes a
// token): MuPDF reads the whole content once before interpreting it.
const bytesPerToken = 4

// watchTokens aborts MuPDF's interpretation of a page (through the cookie
// it updates) once more than max tokens were read; the returned func
// stops watching. Content-stream bombs (a page whose stream inflates to a
// gigabyte of operators) took minutes and gigabytes before this.
func watchTokens(c *C.fz_cookie, max int) (stop func()) {
	if max <= 0 {
		return func() {}
	}
	progress := (*int32)(unsafe.Pointer(&c.progress))
	abort := (*int32)(unsafe.Pointer(&c.abort))
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if int(atomic.LoadInt32(progress)) > max {
					atomic.StoreInt32(abort, 1)
					return
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}
