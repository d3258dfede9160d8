package office

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
)

var sprintf = fmt.Sprintf

// maxMemberBytes bounds what is read from one archive member (zip bombs).
const maxMemberBytes = 1 << 30

// cfbMagic starts an OLE2 compound file: legacy Office, or an encrypted
// OOXML package (which is a CFB holding an "EncryptedPackage" stream).
var cfbMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// openPackage opens a zip-based document, turning the usual failures into
// *document.Error: an OLE2 file is an encrypted OOXML package or a legacy
// binary file, anything else that is not a zip is corrupt.
func openPackage(p, kind string) (*zip.ReadCloser, error) {
	zr, err := zip.OpenReader(p)
	if err == nil {
		return zr, nil
	}
	if e := sniffOLE(p, kind); e != nil {
		return nil, e
	}
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	st, serr := os.Stat(p)
	if serr == nil && st.Size() == 0 {
		return nil, document.Errorf(document.KindEmpty, "the %s file is empty (0 bytes)", kind)
	}
	return nil, document.Errorf(document.KindCorrupt, "not a readable %s package (zip): %v", kind, err)
}

// sniffOLE returns an *document.Error when p is an OLE2 compound file.
func sniffOLE(p, kind string) error {
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, 8)
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, cfbMagic) {
		return nil
	}
	// the CFB directory names streams in UTF-16LE
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil
	}
	buf, _ := io.ReadAll(io.LimitReader(f, 64<<20))
	if bytes.Contains(buf, utf16le("EncryptedPackage")) || bytes.Contains(buf, utf16le("EncryptionInfo")) {
		return document.Errorf(document.KindEncrypted, "the %s file is password-protected (encrypted OOXML package)", kind)
	}
	return document.Errorf(document.KindUnsupported, "legacy OLE2 binary file, not a %s package", kind)
}

func utf16le(s string) []byte {
	out := make([]byte, 0, 2*len(s))
	for _, r := range s {
		out = append(out, byte(r), 0)
	}
	return out
}

// zipIndex maps cleaned member names to files (case-sensitive first, then a
// lower-case fallback: some producers disagree on case with their own rels).
type zipIndex struct {
	files map[string]*zip.File
	lower map[string]*zip.File
}

func newZipIndex(zr *zip.Reader) *zipIndex {
	ix := &zipIndex{files: map[string]*zip.File{}, lower: map[string]*zip.File{}}
	for _, f := range zr.File {
		name := strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(f.Name, "\\", "/")), "/")
		ix.files[name] = f
		ix.lower[strings.ToLower(name)] = f
	}
	return ix
}

func (ix *zipIndex) get(name string) *zip.File {
	name = strings.TrimPrefix(path.Clean("/"+name), "/")
	if f, ok := ix.files[name]; ok {
		return f
	}
	return ix.lower[strings.ToLower(name)]
}

// open opens a member as a bounded stream.
func (ix *zipIndex) open(name string) (io.ReadCloser, error) {
	f := ix.get(name)
	if f == nil {
		return nil, fmt.Errorf("member %s: %w", name, os.ErrNotExist)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("member %s: %w", name, err)
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(rc, maxMemberBytes), rc}, nil
}

func (ix *zipIndex) readAll(name string) ([]byte, error) {
	rc, err := ix.open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// newDecoder returns an xml.Decoder that tolerates what real producers write
// (unknown entities, non-UTF-8 declarations) and reads Strict OOXML
// namespaces as their Transitional twins (see strict.go).
func newDecoder(r io.Reader) *xml.Decoder {
	d := xml.NewDecoder(r)
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		return charsetReader(label, in)
	}
	out := xml.NewTokenDecoder(strictReader{d})
	out.Strict = false
	return out
}

// rels reads an OPC relationships part: id → target resolved against base
// (the folder of the part that owns the rels), plus type per id.
type relation struct {
	Target, Type string
	External     bool
}

func readRels(ix *zipIndex, relsPath, base string) map[string]relation {
	out := map[string]relation{}
	data, err := ix.readAll(relsPath)
	if err != nil {
		return out
	}
	var doc struct {
		Rel []struct {
			ID         string `xml:"Id,attr"`
			Target     string `xml:"Target,attr"`
			Type       string `xml:"Type,attr"`
			TargetMode string `xml:"TargetMode,attr"`
		} `xml:"Relationship"`
	}
	if err := newDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return out
	}
	for _, r := range doc.Rel {
		t := r.Target
		ext := strings.EqualFold(r.TargetMode, "External")
		if !ext {
			if strings.HasPrefix(t, "/") {
				t = strings.TrimPrefix(path.Clean(t), "/")
			} else {
				t = strings.TrimPrefix(path.Clean("/"+path.Join(base, t)), "/")
			}
		}
		out[r.ID] = relation{Target: t, Type: r.Type, External: ext}
	}
	return out
}

// relsPathFor gives the rels part of a part: word/document.xml →
// word/_rels/document.xml.rels.
func relsPathFor(part string) string {
	return path.Join(path.Dir(part), "_rels", path.Base(part)+".rels")
}

// maxMetaChars bounds one core property (title, author, ...): a producer
// that writes megabytes into docProps/core.xml would otherwise put them
// into raw.documents.title.
const maxMetaChars = 4096

// coreProps reads docProps/core.xml (OOXML core properties) into the
// result's metadata. A damaged part (bad byte, unclosed tag, unknown
// charset, broken compression) costs the metadata, not the document: the
// result is flagged metadata_unreadable; an over-long field is cut to
// maxMetaChars and flagged truncated.
func coreProps(ix *zipIndex, res *document.Result) {
	const part = "docProps/core.xml"
	if ix.get(part) == nil {
		return
	}
	md := &res.Metadata
	data, err := ix.readAll(part)
	if err != nil {
		res.Flag(0, document.ReviewMetadataUnreadable, "%s could not be read (%v): title, author and dates are missing", part, err)
		return
	}
	var cp struct {
		Title    string `xml:"title"`
		Creator  string `xml:"creator"`
		Created  string `xml:"created"`
		Modified string `xml:"modified"`
		Language string `xml:"language"`
		Subject  string `xml:"subject"`
		Keywords string `xml:"keywords"`
		LastBy   string `xml:"lastModifiedBy"`
	}
	if err := newDecoder(bytes.NewReader(data)).Decode(&cp); err != nil {
		res.Flag(0, document.ReviewMetadataUnreadable, "%s is not well-formed XML (%v): title, author and dates are missing", part, err)
		return
	}
	field := func(name, v string) string {
		v = strings.TrimSpace(v)
		if n := utf8.RuneCountInString(v); n > maxMetaChars {
			res.Flag(0, document.ReviewTruncated, "%s %s has %d characters: the first %d are kept", part, name, n, maxMetaChars)
			v = string([]rune(v)[:maxMetaChars])
		}
		return v
	}
	md.Title = field("title", cp.Title)
	md.Author = field("creator", cp.Creator)
	md.Created = normDate(field("created", cp.Created))
	md.Modified = normDate(field("modified", cp.Modified))
	md.Language = field("language", cp.Language)
	setExtra(md, "subject", field("subject", cp.Subject))
	setExtra(md, "keywords", field("keywords", cp.Keywords))
	setExtra(md, "last_modified_by", field("lastModifiedBy", cp.LastBy))
}

func setExtra(md *document.Metadata, k, v string) {
	v = strings.TrimSpace(v)
	if v == "" {
		return
	}
	if md.Extra == nil {
		md.Extra = map[string]string{}
	}
	md.Extra[k] = v
}

// normDate returns RFC 3339 when s parses as one of the ISO 8601 forms
// office formats write, else s trimmed.
func normDate(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			if t.Year() <= 1601 { // zero dates written by some producers
				return ""
			}
			return t.Format(time.RFC3339)
		}
	}
	return s
}

// attr returns the value of the attribute with the given local name.
func attr(se xml.StartElement, local string) (string, bool) {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

// partTokens reads the tokens of one XML part, checking the context every
// 4096 tokens.
type partTokens struct {
	ctx     context.Context
	d       *xml.Decoder
	part    string
	n       int
	pending []xml.Token // tokens read ahead and given back, returned first
	ahead   int         // tokens read ahead so far
}

// next returns the next token; at the end of the part a nil token and a nil
// error, else a nil token with the context's error or the XML error (as
// xmlErr).
func (p *partTokens) next() (xml.Token, error) {
	if len(p.pending) > 0 {
		tok := p.pending[0]
		p.pending = p.pending[1:]
		return tok, nil
	}
	p.n++
	if p.n%4096 == 0 {
		if err := ctxErr(p.ctx); err != nil {
			return nil, err
		}
	}
	tok, err := p.d.Token()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return nil, xmlErr(p.part, err)
	}
	return tok, nil
}

// skip reads up to the end of the element whose start was the last token
// (the decoder's Skip, through the tokens given back first).
func (p *partTokens) skip() error {
	if len(p.pending) == 0 {
		if err := p.d.Skip(); err != nil {
			return xmlErr(p.part, err)
		}
		return nil
	}
	for depth := 1; depth > 0; {
		tok, err := p.next()
		if err != nil {
			return err
		}
		switch tok.(type) {
		case nil:
			return xmlErr(p.part, io.ErrUnexpectedEOF)
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
	}
	return nil
}

// ctxErr turns a cancelled context into the error to return.
func ctxErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return document.Errorf(document.KindTimeout, "extraction timed out")
		}
		return err
	}
	return nil
}

// xmlErr wraps a mid-stream XML failure as a corrupt document.
func xmlErr(part string, err error) error {
	return document.Errorf(document.KindCorrupt, "%s is not well-formed XML: %v", part, err)
}
