// Package detect names a document's type from its bytes. It takes a file
// path (or a name and bytes, for attachments) and produces an Info: the type
// key the loader routes on, its MIME type, what the extension claims and
// whether the two disagree, and for text the byte encoding.
//
// Magic bytes and container contents decide (ZIP central directory names,
// OLE2 directory stream names, RFC 822 header blocks, BOMs and UTF-16/32 byte
// patterns); the extension only breaks ties between types the bytes cannot
// tell apart (text vs markdown vs csv, json vs a .txt holding broken JSON).
// Detect reads at most the first headSize bytes plus, for ZIP and OLE2
// containers, their directories.
package detect

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Type keys.
const (
	PDF            = "pdf"
	HTML           = "html"
	XML            = "xml"
	Text           = "text"
	Markdown       = "markdown"
	RST            = "rst"
	Org            = "org"
	RTF            = "rtf"
	JSON           = "json"
	NDJSON         = "ndjson"
	WebVTT         = "webvtt" // WebVTT subtitles/captions
	SRT            = "srt"    // SubRip subtitles
	ICalendar      = "ics"    // iCalendar (RFC 5545): events, to-dos
	LaTeX          = "latex"
	CSV            = "csv"
	TSV            = "tsv"
	DOCX           = "docx"
	PPTX           = "pptx"
	XLSX           = "xlsx"
	EPUB           = "epub"
	ODT            = "odt"
	ODP            = "odp"
	ODS            = "ods"
	ODG            = "odg" // an OpenDocument drawing (LibreOffice Draw)
	ODC            = "odc" // a standalone OpenDocument chart
	Zip            = "zip"
	Tar            = "tar"
	TarGz          = "tar.gz"  // a gzip-compressed tar
	Gzip           = "gzip"    // one gzip-compressed file
	TarBz2         = "tar.bz2" // a bzip2-compressed tar
	Bzip2          = "bzip2"   // one bzip2-compressed file
	TarXz          = "tar.xz"  // an xz-compressed tar
	Xz             = "xz"      // one xz-compressed file
	DOC            = "doc"
	XLS            = "xls"
	PPT            = "ppt"
	MSG            = "msg"
	OLE            = "ole"             // an OLE2 compound file of no known kind
	OOXMLEncrypted = "ooxml_encrypted" // password-protected DOCX/XLSX/PPTX (OLE2 with EncryptedPackage)
	EML            = "eml"
	PNG            = "png"
	JPEG           = "jpeg"
	TIFF           = "tiff"
	BMP            = "bmp"
	GIF            = "gif"
	WEBP           = "webp"
	HEIC           = "heic" // HEIF family (heic, heif, avif)
	Audio          = "audio"
	Video          = "video"
	Empty          = "empty" // zero bytes
	Unknown        = "unknown"
)

// Text encodings reported in Info.Encoding (legacy charsets use their
// IANA/WHATWG name, e.g. "windows-1252", "iso-8859-8").
const (
	UTF8    = "utf-8"
	UTF16LE = "utf-16le"
	UTF16BE = "utf-16be"
	UTF32LE = "utf-32le"
	UTF32BE = "utf-32be"
)

// Info is what detection found.
type Info struct {
	Type     string // one of the type keys
	MIME     string
	ExtType  string // the type the file name's extension claims, "" when it says nothing
	Mismatch bool   // the bytes and the extension disagree
	Encoding string // text types: utf-8, utf-16le, utf-16be, utf-32le, utf-32be or a legacy charset name
	BOM      bool   // the text starts with a byte order mark
}

// headSize is how much of a file detection reads (besides container
// directories).
const headSize = 16 << 10

// Detect reads the start of the file at path (and a ZIP's central directory
// or an OLE2 directory) and names its type.
func Detect(path string) (Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return Info{}, fmt.Errorf("detect %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Info{}, fmt.Errorf("detect %s: %w", path, err)
	}
	if st.IsDir() {
		return Info{}, fmt.Errorf("detect %s: is a directory", path)
	}
	head := make([]byte, headSize)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return Info{}, fmt.Errorf("detect %s: %w", path, err)
	}
	return detect(path, head[:n], st.Size(), f), nil
}

// DetectBytes names the type of in-memory content (an e-mail attachment, an
// archive member); name gives the extension tie-breaker.
func DetectBytes(name string, data []byte) (Info, error) {
	head := data
	if len(head) > headSize {
		head = head[:headSize]
	}
	return detect(name, head, int64(len(data)), bytes.NewReader(data)), nil
}

// detect is the decision procedure; ra gives access to the whole content for
// container directories.
func detect(name string, head []byte, size int64, ra io.ReaderAt) Info {
	ext := extType(name)
	info := Info{ExtType: ext}
	if size == 0 {
		info.Type = Empty
		info.MIME = "application/x-empty"
		return info
	}
	info.Type, info.MIME = sniffBinary(head, size, ra, ext)
	if info.Type == "" {
		info.Type, info.MIME, info.Encoding, info.BOM = sniffText(head, size, ext)
	}
	if info.MIME == "" {
		info.MIME = mimeOf[info.Type]
	}
	info.Mismatch = mismatch(info.Type, ext)
	return info
}

// mismatch says whether the extension's claim contradicts the bytes. Types
// the bytes cannot separate (a .txt that is markdown, a .json holding NDJSON)
// are not counted as disagreements.
func mismatch(typ, ext string) bool {
	if ext == "" || ext == typ || typ == Empty || typ == Unknown {
		return false
	}
	group := func(t string) string {
		switch t {
		case Text, Markdown, RST, Org, CSV, TSV, WebVTT, SRT, LaTeX, ICalendar:
			return "text"
		case JSON, NDJSON:
			return "json"
		case HTML, XML:
			return "markup"
		}
		return t
	}
	if group(typ) == group(ext) {
		return false
	}
	// x.tar.gz has the extension .gz
	if typ == TarGz && ext == Gzip || typ == TarBz2 && ext == Bzip2 || typ == TarXz && ext == Xz {
		return false
	}
	// An encrypted OOXML file is an OLE2 container by design.
	if typ == OOXMLEncrypted && (ext == DOCX || ext == XLSX || ext == PPTX) {
		return false
	}
	return true
}

var extTypes = map[string]string{
	"pdf": PDF, "html": HTML, "htm": HTML, "xhtml": HTML, "shtml": HTML,
	"xml": XML, "xsl": XML, "xslt": XML, "xsd": XML, "rss": XML, "atom": XML, "svg": XML,
	"txt": Text, "text": Text, "log": Text, "yaml": Text, "yml": Text, "ini": Text, "cfg": Text,
	"md": Markdown, "markdown": Markdown, "mdown": Markdown, "mkd": Markdown,
	"rst": RST, "org": Org, "rtf": RTF, "vtt": WebVTT, "srt": SRT, "ics": ICalendar, "ical": ICalendar, "ifb": ICalendar, "tex": LaTeX, "latex": LaTeX, "ltx": LaTeX,
	"json": JSON, "ndjson": NDJSON, "jsonl": NDJSON,
	"csv": CSV, "tsv": TSV, "tab": TSV,
	"docx": DOCX, "docm": DOCX, "dotx": DOCX, "dotm": DOCX,
	"pptx": PPTX, "pptm": PPTX, "ppsx": PPTX, "potx": PPTX,
	"xlsx": XLSX, "xlsm": XLSX, "xltx": XLSX,
	"epub": EPUB, "odt": ODT, "odp": ODP, "ods": ODS, "odg": ODG, "otg": ODG, "odc": ODC, "zip": Zip, "tar": Tar, "tgz": TarGz, "gz": Gzip,
	"tbz2": TarBz2, "tbz": TarBz2, "bz2": Bzip2, "txz": TarXz, "xz": Xz,
	"doc": DOC, "dot": DOC, "xls": XLS, "xlt": XLS, "ppt": PPT, "pps": PPT, "pot": PPT,
	"msg": MSG, "eml": EML, "mbox": EML, "mbx": EML, "p7m": EML, "p7s": EML,
	"png": PNG, "jpg": JPEG, "jpeg": JPEG, "jpe": JPEG, "jfif": JPEG,
	"tif": TIFF, "tiff": TIFF, "bmp": BMP, "gif": GIF, "webp": WEBP,
	"heic": HEIC, "heif": HEIC, "avif": HEIC,
	"wav": Audio, "mp3": Audio, "flac": Audio, "ogg": Audio, "oga": Audio, "m4a": Audio, "aac": Audio, "wma": Audio, "aiff": Audio, "opus": Audio,
	"mp4": Video, "m4v": Video, "mov": Video, "avi": Video, "mkv": Video, "webm": Video, "wmv": Video, "mpg": Video, "mpeg": Video,
}

// extType maps a file name's extension to the type it claims.
func extType(name string) string {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(name)), ".")
	return extTypes[ext]
}

var mimeOf = map[string]string{
	PDF: "application/pdf", HTML: "text/html", XML: "text/xml", Text: "text/plain",
	Markdown: "text/markdown", RST: "text/x-rst", WebVTT: "text/vtt", SRT: "application/x-subrip", ICalendar: "text/calendar", LaTeX: "text/x-tex", Org: "text/x-org", RTF: "text/rtf",
	JSON: "application/json", NDJSON: "application/x-ndjson", CSV: "text/csv", TSV: "text/tab-separated-values",
	DOCX: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	PPTX: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	EPUB: "application/epub+zip",
	ODT:  "application/vnd.oasis.opendocument.text",
	ODP:  "application/vnd.oasis.opendocument.presentation",
	ODS:  "application/vnd.oasis.opendocument.spreadsheet",
	ODG:  "application/vnd.oasis.opendocument.graphics",
	ODC:  "application/vnd.oasis.opendocument.chart",
	Zip:  "application/zip", Tar: "application/x-tar", TarGz: "application/gzip", Gzip: "application/gzip",
	TarBz2: "application/x-bzip2", Bzip2: "application/x-bzip2", TarXz: "application/x-xz", Xz: "application/x-xz", DOC: "application/msword", XLS: "application/vnd.ms-excel",
	PPT: "application/vnd.ms-powerpoint", MSG: "application/vnd.ms-outlook",
	OLE: "application/x-ole-storage", OOXMLEncrypted: "application/x-ooxml-encrypted",
	EML: "message/rfc822", PNG: "image/png", JPEG: "image/jpeg", TIFF: "image/tiff",
	BMP: "image/bmp", GIF: "image/gif", WEBP: "image/webp", HEIC: "image/heic",
	Audio: "audio/unknown", Video: "video/unknown", Empty: "application/x-empty",
	Unknown: "application/octet-stream",
}

// MIMEOf returns the usual MIME type of a type key.
func MIMEOf(typ string) string { return mimeOf[typ] }

// IsText reports whether the type is read as (possibly encoded) text.
func IsText(typ string) bool {
	switch typ {
	case HTML, XML, Text, Markdown, RST, Org, RTF, JSON, NDJSON, CSV, TSV, EML, WebVTT, SRT, LaTeX, ICalendar:
		return true
	}
	return false
}
