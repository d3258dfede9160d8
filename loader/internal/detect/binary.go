package detect

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"strconv"
	"strings"

	"github.com/gabriel-vasile/mimetype"
	"github.com/richardlehane/mscfb"

	"github.com/docket-dev/docket/loader/internal/xzread"
)

var (
	magicPNG  = []byte("\x89PNG\r\n\x1a\n")
	magicOLE  = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	magicZip  = []byte("PK\x03\x04")
	magicZipE = []byte("PK\x05\x06") // empty archive
	magicZipS = []byte("PK\x07\x08") // spanned archive marker
)

// sniffBinary recognises binary formats by magic bytes and container
// contents. It returns "" when the head is not a known binary format, so the
// text sniffer takes over.
func sniffBinary(head []byte, size int64, ra io.ReaderAt, ext string) (typ, mime string) {
	switch {
	case bytes.HasPrefix(head, magicPNG):
		return PNG, ""
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}):
		return JPEG, ""
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return GIF, ""
	case bytes.HasPrefix(head, []byte("II*\x00")), bytes.HasPrefix(head, []byte("MM\x00*")),
		bytes.HasPrefix(head, []byte("II+\x00")), bytes.HasPrefix(head, []byte("MM\x00+")):
		return TIFF, ""
	case isBMP(head):
		return BMP, ""
	case len(head) >= 12 && bytes.HasPrefix(head, []byte("RIFF")):
		switch string(head[8:12]) {
		case "WEBP":
			return WEBP, ""
		case "WAVE":
			return Audio, "audio/wav"
		case "AVI ":
			return Video, "video/x-msvideo"
		}
	case len(head) >= 12 && string(head[4:8]) == "ftyp":
		return sniffISOBMFF(head)
	case bytes.HasPrefix(head, []byte(`{\rtf`)):
		return RTF, ""
	case bytes.HasPrefix(head, magicZip), bytes.HasPrefix(head, magicZipE), bytes.HasPrefix(head, magicZipS):
		return sniffZip(head, size, ra, ext), ""
	case bytes.HasPrefix(head, magicOLE):
		return sniffOLE(ra, ext), ""
	case bytes.HasPrefix(head, []byte{0x1F, 0x8B, 0x08}):
		if isTar(gunzipHead(head)) {
			return TarGz, ""
		}
		return Gzip, ""
	case isBzip2(head):
		if isTar(unpackHead(ra, size, Bzip2)) {
			return TarBz2, ""
		}
		return Bzip2, ""
	case bytes.HasPrefix(head, xzread.Magic):
		if isTar(unpackHead(ra, size, Xz)) {
			return TarXz, ""
		}
		return Xz, ""
	case isTar(head):
		return Tar, ""
	}
	// PDF allows junk before the header; readers look in the first KB.
	if i := bytes.Index(head[:min(len(head), 1024)], []byte("%PDF-")); i >= 0 {
		return PDF, ""
	}
	if looksText(head) || EBCDICEncoding(head) != "" || NULPadded(head) {
		return "", ""
	}
	// Other binaries: mimetype knows many audio/video/archive signatures.
	mt := mimetype.Detect(head)
	m := mt.String()
	if i := strings.IndexByte(m, ';'); i >= 0 {
		m = m[:i]
	}
	switch {
	case strings.HasPrefix(m, "audio/"):
		return Audio, m
	case strings.HasPrefix(m, "video/"), m == "application/x-matroska", m == "application/vnd.rn-realmedia":
		return Video, m
	}
	return Unknown, m
}

// isBMP checks the BMP file header and a known DIB header size, since "BM"
// alone also starts ordinary text.
func isBMP(b []byte) bool {
	if len(b) < 26 || b[0] != 'B' || b[1] != 'M' {
		return false
	}
	switch binary.LittleEndian.Uint32(b[14:18]) {
	case 12, 16, 40, 52, 56, 64, 108, 124:
		return true
	}
	return false
}

// sniffISOBMFF reads the ftyp box brands: HEIF/AVIF images, M4A audio, the
// rest video.
func sniffISOBMFF(head []byte) (string, string) {
	boxLen := int(binary.BigEndian.Uint32(head[0:4]))
	if boxLen < 16 || boxLen > len(head) {
		boxLen = min(len(head), 64)
	}
	var brands []string
	for i := 8; i+4 <= boxLen; i += 4 {
		if i == 12 { // minor version
			continue
		}
		brands = append(brands, string(head[i:i+4]))
	}
	for _, b := range brands {
		switch b {
		case "heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs":
			return HEIC, "image/heic"
		case "avif", "avis":
			return HEIC, "image/avif"
		}
	}
	for _, b := range brands {
		if b == "mif1" || b == "msf1" {
			return HEIC, "image/heif"
		}
	}
	switch brands[0] {
	case "M4A ", "M4B ", "M4P ", "F4A ", "F4B ":
		return Audio, "audio/mp4"
	case "qt  ":
		return Video, "video/quicktime"
	case "3gp4", "3gp5", "3gp6", "3g2a":
		return Video, "video/3gpp"
	}
	return Video, "video/mp4"
}

// sniffZip looks at a ZIP's member names (central directory only, plus the
// tiny "mimetype" member of EPUB/ODF packages).
func sniffZip(head []byte, size int64, ra io.ReaderAt, ext string) string {
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		// Damaged archive: the first local header's name still tells the
		// family; otherwise believe a zip-family extension so the right
		// extractor can report the damage.
		if t := zipTypeFromNames([]string{firstLocalName(head)}, ""); t != Zip {
			return t
		}
		switch ext {
		case DOCX, PPTX, XLSX, EPUB, ODT, ODP, ODS, ODG, ODC:
			return ext
		}
		return Zip
	}
	names := make([]string, 0, len(zr.File))
	mimetypeContent := ""
	for _, f := range zr.File {
		names = append(names, f.Name)
		if f.Name == "mimetype" && f.UncompressedSize64 < 200 {
			if rc, err := f.Open(); err == nil {
				b, _ := io.ReadAll(io.LimitReader(rc, 200))
				rc.Close()
				mimetypeContent = strings.TrimSpace(string(b))
			}
		}
	}
	t := zipTypeFromNames(names, mimetypeContent)
	if t == Zip && (ext == ODT || ext == ODP || ext == ODS || ext == ODG || ext == ODC) && contains(names, "content.xml") {
		return ext
	}
	return t
}

func zipTypeFromNames(names []string, mimetypeContent string) string {
	switch {
	case mimetypeContent == "application/epub+zip":
		return EPUB
	case strings.HasPrefix(mimetypeContent, "application/vnd.oasis.opendocument.text"):
		return ODT
	case strings.HasPrefix(mimetypeContent, "application/vnd.oasis.opendocument.presentation"):
		return ODP
	case strings.HasPrefix(mimetypeContent, "application/vnd.oasis.opendocument.spreadsheet"):
		return ODS
	case strings.HasPrefix(mimetypeContent, "application/vnd.oasis.opendocument.graphics"):
		return ODG // and its -template
	case strings.HasPrefix(mimetypeContent, "application/vnd.oasis.opendocument.chart"):
		return ODC
	}
	var word, ppt, xl, container bool
	for _, n := range names {
		switch {
		case strings.HasPrefix(n, "word/"):
			word = true
		case strings.HasPrefix(n, "ppt/"):
			ppt = true
		case strings.HasPrefix(n, "xl/"):
			xl = true
		case n == "META-INF/container.xml":
			container = true
		}
	}
	switch {
	case word:
		return DOCX
	case ppt:
		return PPTX
	case xl:
		return XLSX
	case container:
		return EPUB
	}
	return Zip
}

func firstLocalName(head []byte) string {
	if len(head) < 30 || !bytes.HasPrefix(head, magicZip) {
		return ""
	}
	n := int(binary.LittleEndian.Uint16(head[26:28]))
	if 30+n > len(head) {
		return ""
	}
	return string(head[30 : 30+n])
}

// sniffOLE names an OLE2 compound file by its stream names. A damaged
// directory falls back on an OLE-family extension.
func sniffOLE(ra io.ReaderAt, ext string) (typ string) {
	fallback := OLE
	switch ext {
	case DOC, XLS, PPT, MSG:
		fallback = ext
	}
	defer func() {
		if recover() != nil { // mscfb on hostile input
			typ = fallback
		}
	}()
	r, err := mscfb.New(ra)
	if err != nil {
		return fallback
	}
	var word, book, ppt, msg bool
	for i := 0; i < 100000; i++ {
		e, err := r.Next()
		if err != nil {
			break
		}
		switch name := e.Name; {
		case name == "EncryptedPackage":
			return OOXMLEncrypted
		case strings.HasPrefix(name, "__substg1.0_"):
			msg = true
		case name == "WordDocument":
			word = true
		case name == "Workbook", name == "Book":
			book = true
		case name == "PowerPoint Document":
			ppt = true
		}
	}
	switch {
	case msg:
		return MSG
	case word:
		return DOC
	case book:
		return XLS
	case ppt:
		return PPT
	}
	return OLE
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isTar says whether b starts with a tar header: the POSIX/GNU "ustar"
// magic, or (old V7 archives) a header whose checksum adds up.
func isTar(b []byte) bool {
	if len(b) < 512 {
		return false
	}
	if bytes.Equal(b[257:262], []byte("ustar")) {
		return true
	}
	field := bytes.TrimRight(bytes.TrimLeft(b[148:156], " "), " \x00")
	if len(field) == 0 || b[0] == 0 {
		return false
	}
	want, err := strconv.ParseInt(string(field), 8, 64)
	if err != nil {
		return false
	}
	sum := int64(0)
	for i, c := range b[:512] {
		if i >= 148 && i < 156 {
			c = ' '
		}
		sum += int64(c)
	}
	return sum == want
}

// gunzipHead inflates the first tar block of a gzip stream (what the head
// holds of it).
func gunzipHead(head []byte) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(head))
	if err != nil {
		return nil
	}
	out, _ := io.ReadAll(io.LimitReader(zr, 512))
	return out
}
