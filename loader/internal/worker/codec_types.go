package worker

import (
	"slices"
	"sort"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
)

// The frames' contents: Request, Response and the document types a
// Result holds, field by field in declared order (see codec.go).

// hello is a worker's first frame: the versions it greets with.
func (e *encoder) hello(versions string) {
	e.begin()
	e.str(versions)
}

// hello reads a hello frame's versions (a copy of its own).
func (d *decoder) hello() (string, error) {
	s := d.own()
	return s, d.done()
}

// request builds req's frame.
func (e *encoder) request(req *Request) {
	e.begin()
	e.int(req.ID)
	e.str(req.Path)
	e.str(req.Name)
	e.str(req.Type)
	e.str(req.MIME)
	e.str(req.Encoding)
	o := &req.Opts
	e.int(int64(o.MinCharsPerPage))
	e.int(int64(o.MaxPages))
	e.bool(o.OCR)
	e.strs(o.OCRLanguages)
	e.int(int64(o.OCRDPI))
	e.float(o.OCRMinWordConf)
	e.float(o.OCRReviewBelow)
	e.int(int64(o.MaxSheetRows))
	e.int(int64(o.MaxAttachDepth))
	e.bool(o.FollowSymlinks)
	e.int(int64(o.MaxArchiveMembers))
	e.int(o.MaxArchiveBytes)
	e.int(int64(o.MaxPageChars))
	e.int(int64(o.MaxDocChars))
	e.int(int64(o.MaxPageTokens))
	e.int(int64(o.MaxImagePixels))
	e.bool(o.NoFolder)
}

func (d *decoder) request() (Request, error) {
	var req Request
	req.ID = d.int()
	req.Path = d.str()
	req.Name = d.str()
	req.Type = d.str()
	req.MIME = d.str()
	req.Encoding = d.str()
	o := &req.Opts
	o.MinCharsPerPage = d.n()
	o.MaxPages = d.n()
	o.OCR = d.bool()
	o.OCRLanguages = d.strs()
	o.OCRDPI = d.n()
	o.OCRMinWordConf = d.float()
	o.OCRReviewBelow = d.float()
	o.MaxSheetRows = d.n()
	o.MaxAttachDepth = d.n()
	o.FollowSymlinks = d.bool()
	o.MaxArchiveMembers = d.n()
	o.MaxArchiveBytes = d.int()
	o.MaxPageChars = d.n()
	o.MaxDocChars = d.n()
	o.MaxPageTokens = d.n()
	o.MaxImagePixels = d.n()
	o.NoFolder = d.bool()
	return req, d.done()
}

// Response flags.
const (
	hasResult = 1 << iota
	hasErr
)

func (e *encoder) response(resp *Response) {
	size := 64
	if resp.Err != nil {
		size += len(resp.Err.Kind) + len(resp.Err.Msg)
	}
	if resp.Result != nil {
		size += resultSize(resp.Result)
	}
	e.b = slices.Grow(e.b[:0], size)
	e.begin()
	e.int(resp.ID)
	e.int(int64(resp.Duration))
	var flags uint64
	if resp.Result != nil {
		flags |= hasResult
	}
	if resp.Err != nil {
		flags |= hasErr
	}
	e.uint(flags)
	if resp.Err != nil {
		e.str(resp.Err.Kind)
		e.str(resp.Err.Msg)
	}
	if resp.Result != nil {
		e.result(resp.Result)
	}
}

// resultSize is about the bytes r takes encoded (each integer counted at
// 2 bytes, most take 1-3), so that a response's frame buffer is grown
// once before the frame is written instead of step by step: append grew
// the buffer a quarter at a time, copying it and touching fresh memory at
// each step whenever a frame outgrew every earlier one (the 149 bench-load
// PDFs through one encoder, biggest file first: 26.5 MB allocated, 2 % of
// the workers' CPU in pprof; sized once: 6.2 MB, 0.8 %).
func resultSize(r *document.Result) int {
	const (
		page    = 8 + 8 + 8 + 1 + 8*2
		element = 9*2 + 32
		table   = 4*2 + 32 + 1
		word    = 7*2 + 32 + 8
		str     = 2 // a string's length
	)
	n := 1 << 10 // type, MIME, metadata, version, counts
	for _, v := range r.Metadata.Extra {
		n += len(v) + 2*str + 16
	}
	for i := range r.Pages {
		p := &r.Pages[i]
		n += page + 3*str + len(p.Text) + len(p.Method) + len(p.ReviewReason)
	}
	for i := range r.Elements {
		el := &r.Elements[i]
		n += element + 3*str + len(el.Category) + len(el.Text) + len(el.Section)
	}
	for i := range r.Tables {
		t := &r.Tables[i]
		n += table + 4*2*len(t.Spans) + rowSize(t.Header)
		for _, row := range t.Rows {
			n += rowSize(row)
		}
	}
	for i := range r.Words {
		n += word + str + len(r.Words[i].Text)
	}
	for _, a := range r.Attachments {
		n += 2*str + len(a.Name) + len(a.Data)
	}
	for _, w := range r.Warnings {
		n += str + len(w)
	}
	for _, v := range r.Reviews {
		n += 2 + 2*str + len(v.Code) + len(v.Message)
	}
	return n
}

// rowSize is about the bytes a table row takes encoded (see resultSize).
func rowSize(row []string) int {
	n := 2
	for _, c := range row {
		n += 2 + len(c)
	}
	return n
}

func (d *decoder) response() (Response, error) {
	var resp Response
	resp.ID = d.int()
	resp.Duration = time.Duration(d.int())
	flags := d.uint()
	if flags&^(hasResult|hasErr) != 0 {
		d.fail(broken("bad response flags %#x", flags))
	}
	if flags&hasErr != 0 && d.err == nil {
		resp.Err = &document.Error{Kind: d.own(), Msg: d.own()}
	}
	if flags&hasResult != 0 && d.err == nil {
		resp.Result = d.result()
	}
	if err := d.done(); err != nil {
		return Response{}, err
	}
	return resp, nil
}

func (e *encoder) result(r *document.Result) {
	e.str(r.Type)
	e.str(r.MIME)
	m := &r.Metadata
	e.str(m.Title)
	e.str(m.Author)
	e.str(m.Created)
	e.str(m.Modified)
	e.str(m.Language)
	e.int(int64(m.PageCount))
	keys := make([]string, 0, len(m.Extra))
	for k := range m.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// 0: no map; else the count + 1 (gob, too, sends an empty map).
	if m.Extra == nil {
		e.uint(0)
	} else {
		e.uint(uint64(len(keys)) + 1)
	}
	for _, k := range keys {
		e.str(k)
		e.str(m.Extra[k])
	}
	e.uint(uint64(len(r.Pages)))
	for i := range r.Pages {
		e.page(&r.Pages[i])
	}
	e.uint(uint64(len(r.Elements)))
	for i := range r.Elements {
		e.element(&r.Elements[i])
	}
	e.uint(uint64(len(r.Tables)))
	for i := range r.Tables {
		e.table(&r.Tables[i])
	}
	e.uint(uint64(len(r.Words)))
	for i := range r.Words {
		e.word(&r.Words[i])
	}
	e.uint(uint64(len(r.Attachments)))
	for _, a := range r.Attachments {
		e.str(a.Name)
		e.bytes(a.Data)
	}
	e.strs(r.Warnings)
	e.uint(uint64(len(r.Reviews)))
	for _, v := range r.Reviews {
		e.int(int64(v.Page))
		e.str(v.Code)
		e.str(v.Message)
	}
	e.str(r.ExtractorVersion)
}

func (e *encoder) page(p *document.Page) {
	e.int(int64(p.Number))
	e.float(p.Width)
	e.float(p.Height)
	e.str(p.Text)
	e.str(p.Method)
	e.bool(p.NeedsOCR)
	e.float(p.OCRConfidence)
	e.str(p.ReviewReason)
	e.int(int64(p.CharCount))
	e.int(int64(p.UnmappedChars))
	e.int(int64(p.ClippedChars))
	e.int(int64(p.ScanDPI))
}

func (e *encoder) element(el *document.Element) {
	e.int(int64(el.Page))
	e.int(int64(el.Seq))
	e.str(string(el.Category))
	e.str(el.Text)
	e.box(el.BBox)
	e.int(int64(el.CharStart))
	e.int(int64(el.CharEnd))
	e.int(int64(el.Level))
	e.str(el.Section)
	e.int(int64(el.TableSeq))
}

func (e *encoder) table(t *document.Table) {
	e.int(int64(t.Page))
	e.int(int64(t.Seq))
	e.box(t.BBox)
	e.strs(t.Header)
	e.uint(uint64(len(t.Rows)))
	for _, row := range t.Rows {
		e.strs(row)
	}
	e.uint(uint64(len(t.Spans)))
	for _, s := range t.Spans {
		e.int(int64(s.Row))
		e.int(int64(s.Col))
		e.int(int64(s.Rows))
		e.int(int64(s.Cols))
	}
	e.bool(t.Continues)
}

func (e *encoder) word(w *document.OCRWord) {
	e.int(int64(w.Page))
	e.int(int64(w.Seq))
	e.str(w.Text)
	e.box(w.BBox)
	e.float(w.Confidence)
	e.int(int64(w.Block))
	e.int(int64(w.Paragraph))
	e.int(int64(w.Line))
}

// Least bytes of an encoded element of each slice (a count over what the
// frame can hold is rejected before allocating).
const (
	minPage    = 1 + 8 + 8 + 1 + 1 + 1 + 8 + 1 + 1 + 1 + 1
	minElement = 1 + 1 + 1 + 1 + 32 + 1 + 1 + 1 + 1 + 1
	minTable   = 1 + 1 + 32 + 1 + 1 + 1 + 1
	minWord    = 1 + 1 + 1 + 32 + 8 + 1 + 1 + 1
	minSpan    = 4
	minReview  = 3
	minAttach  = 2
	minExtra   = 2
)

func (d *decoder) result() *document.Result {
	r := &document.Result{}
	r.Type = d.own()
	r.MIME = d.own()
	m := &r.Metadata
	m.Title = d.own()
	m.Author = d.own()
	m.Created = d.own()
	m.Modified = d.own()
	m.Language = d.own()
	m.PageCount = d.n()
	if n := d.uint(); n > 0 && d.err == nil {
		if n-1 > uint64((len(d.buf)-d.off)/minExtra) {
			d.fail(errShort)
			n = 1
		}
		m.Extra = make(map[string]string, n-1)
		for range n - 1 {
			k := d.own()
			m.Extra[k] = d.own()
		}
	}
	r.Pages = list(d, minPage, d.page)
	r.Elements = list(d, minElement, d.element)
	r.Tables = list(d, minTable, d.table)
	r.Words = list(d, minWord, d.word)
	r.Attachments = list(d, minAttach, func(a *document.Attachment) {
		*a = document.Attachment{Name: d.own(), Data: d.raw()}
	})
	r.Warnings = d.strList(d.own)
	r.Reviews = list(d, minReview, func(v *document.Review) {
		*v = document.Review{Page: d.n(), Code: d.str(), Message: d.str()}
	})
	r.ExtractorVersion = d.own()
	return r
}

func (d *decoder) page(p *document.Page) {
	p.Number = d.n()
	p.Width = d.float()
	p.Height = d.float()
	p.Text = d.str()
	p.Method = d.str()
	p.NeedsOCR = d.bool()
	p.OCRConfidence = d.float()
	p.ReviewReason = d.str()
	p.CharCount = d.n()
	p.UnmappedChars = d.n()
	p.ClippedChars = d.n()
	p.ScanDPI = d.n()
}

func (d *decoder) element(el *document.Element) {
	el.Page = d.n()
	el.Seq = d.n()
	el.Category = document.Category(d.str())
	el.Text = d.str()
	el.BBox = d.box()
	el.CharStart = d.n()
	el.CharEnd = d.n()
	el.Level = d.n()
	el.Section = d.str()
	el.TableSeq = d.n()
}

func (d *decoder) table(t *document.Table) {
	t.Page = d.n()
	t.Seq = d.n()
	t.BBox = d.box()
	t.Header = d.strs()
	t.Rows = list(d, 1, func(row *[]string) { *row = d.strs() })
	t.Spans = list(d, minSpan, func(sp *document.CellSpan) {
		*sp = document.CellSpan{Row: d.n(), Col: d.n(), Rows: d.n(), Cols: d.n()}
	})
	t.Continues = d.bool()
}

func (d *decoder) word(w *document.OCRWord) {
	w.Page = d.n()
	w.Seq = d.n()
	w.Text = d.str()
	w.BBox = d.box()
	w.Confidence = d.float()
	w.Block = d.n()
	w.Paragraph = d.n()
	w.Line = d.n()
}
