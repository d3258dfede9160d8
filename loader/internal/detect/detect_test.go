package detect

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// zipOf builds a ZIP archive holding the named members (empty content unless
// given).
func zipOf(t *testing.T, members ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m[0], Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(m[1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func tarOf(t *testing.T, name, body string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	tw.Write([]byte(body))
	tw.Close()
	return buf.Bytes()
}

func gzipOf(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

// cfbOf builds a minimal OLE2 compound file (version 3, one FAT sector, one
// directory sector) whose root holds empty streams with the given names.
func cfbOf(names ...string) []byte {
	const (
		endOfChain = 0xFFFFFFFE
		free       = 0xFFFFFFFF
		fatSect    = 0xFFFFFFFD
		noStream   = 0xFFFFFFFF
	)
	le := binary.LittleEndian
	b := make([]byte, 512*3)
	copy(b, magicOLE)
	le.PutUint16(b[24:], 0x3E)
	le.PutUint16(b[26:], 3)
	le.PutUint16(b[28:], 0xFFFE)
	le.PutUint16(b[30:], 9)
	le.PutUint16(b[32:], 6)
	le.PutUint32(b[44:], 1)
	le.PutUint32(b[48:], 1)
	le.PutUint32(b[56:], 4096)
	le.PutUint32(b[60:], endOfChain)
	le.PutUint32(b[68:], endOfChain)
	for i := 0; i < 109; i++ {
		le.PutUint32(b[76+4*i:], free)
	}
	le.PutUint32(b[76:], 0)
	fat := b[512:1024]
	for i := 0; i < 128; i++ {
		le.PutUint32(fat[4*i:], free)
	}
	le.PutUint32(fat[0:], fatSect)
	le.PutUint32(fat[4:], endOfChain)
	entry := func(i int, name string, typ byte, right, child uint32) {
		e := b[1024+128*i : 1024+128*(i+1)]
		u := utf16.Encode([]rune(name))
		for j, c := range u {
			le.PutUint16(e[2*j:], c)
		}
		le.PutUint16(e[64:], uint16(2*len(u)+2))
		e[66] = typ
		e[67] = 1
		le.PutUint32(e[68:], noStream)
		le.PutUint32(e[72:], right)
		le.PutUint32(e[76:], child)
		le.PutUint32(e[116:], endOfChain)
	}
	entry(0, "Root Entry", 5, noStream, 1)
	for i, n := range names {
		right := uint32(noStream)
		if i+1 < len(names) {
			right = uint32(i + 2)
		}
		entry(i+1, n, 2, right, noStream)
	}
	for i := len(names) + 1; i < 4; i++ {
		e := b[1024+128*i:]
		le.PutUint32(e[68:], noStream)
		le.PutUint32(e[72:], noStream)
		le.PutUint32(e[76:], noStream)
	}
	return b
}

func imageBytes(t *testing.T, kind string) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 2, 2))
	var buf bytes.Buffer
	var err error
	switch kind {
	case "png":
		err = png.Encode(&buf, img)
	case "jpeg":
		err = jpeg.Encode(&buf, img, nil)
	case "gif":
		err = gif.Encode(&buf, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func utf16Bytes(s string, bigEndian, bom bool) []byte {
	var out []byte
	u := utf16.Encode([]rune(s))
	if bom {
		u = append([]uint16{0xFEFF}, u...)
	}
	for _, c := range u {
		if bigEndian {
			out = binary.BigEndian.AppendUint16(out, c)
		} else {
			out = binary.LittleEndian.AppendUint16(out, c)
		}
	}
	return out
}

func utf32LEBytes(s string, bom bool) []byte {
	var out []byte
	if bom {
		out = binary.LittleEndian.AppendUint32(out, 0xFEFF)
	}
	for _, r := range s {
		out = binary.LittleEndian.AppendUint32(out, uint32(r))
	}
	return out
}

func ftyp(brands ...string) []byte {
	var b []byte
	b = binary.BigEndian.AppendUint32(b, uint32(8+4*len(brands)+4))
	b = append(b, "ftyp"...)
	b = append(b, brands[0]...)
	b = append(b, 0, 0, 0, 0)
	for _, x := range brands[1:] {
		b = append(b, x...)
	}
	return append(b, make([]byte, 32)...)
}

const mail = "Received: from mx.example.org by mail.example.com\r\nFrom: Ann <ann@example.org>\r\nTo: bob@example.com\r\nSubject: Hello\r\nDate: Tue, 01 Oct 2024 12:34:56 -0500\r\n\r\nHi Bob.\r\n"

func TestDetect(t *testing.T) {
	docx := zipOf(t, [2]string{"[Content_Types].xml", "<Types/>"}, [2]string{"word/document.xml", "<w:document/>"})
	wav := append([]byte("RIFF\x24\x00\x00\x00WAVEfmt "), make([]byte, 40)...)
	tarball := tarOf(t, "notes.txt", "hello")
	v7 := append([]byte{}, tarball...)
	copy(v7[257:265], make([]byte, 8)) // no ustar magic: an old V7 header, checksum still right
	sum := 0
	for i, c := range v7[:512] {
		if i >= 148 && i < 156 {
			c = ' '
		}
		sum += int(c)
	}
	copy(v7[148:156], fmt.Sprintf("%06o\x00 ", sum))
	tests := []struct {
		name     string
		data     []byte
		typ      string
		mismatch bool
		enc      string
		bom      bool
	}{
		{"empty.txt", nil, Empty, false, "", false},
		{"tiny.pdf", []byte("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"), PDF, false, "", false},
		{"junk-before-header.pdf", append(bytes.Repeat([]byte{0}, 20), "%PDF-1.7\n"...), PDF, false, "", false},
		{"pic.png", imageBytes(t, "png"), PNG, false, "", false},
		{"pic.pdf", imageBytes(t, "png"), PNG, true, "", false},
		{"pic.jpg", imageBytes(t, "jpeg"), JPEG, false, "", false},
		{"pic.gif", imageBytes(t, "gif"), GIF, false, "", false},
		{"scan.tif", append([]byte("II*\x00\x08\x00\x00\x00"), make([]byte, 16)...), TIFF, false, "", false},
		{"photo.heic", ftyp("heic", "mif1", "heic"), HEIC, false, "", false},
		{"movie.mp4", ftyp("isom", "isom", "mp41"), Video, false, "", false},
		{"song.m4a", ftyp("M4A ", "M4A ", "isom"), Audio, false, "", false},
		{"sound.wav", wav, Audio, false, "", false},
		{"a.docx", docx, DOCX, false, "", false},
		{"a.doc", docx, DOCX, true, "", false},
		{"noext", docx, DOCX, false, "", false},
		{"a.xlsx", zipOf(t, [2]string{"[Content_Types].xml", ""}, [2]string{"xl/workbook.xml", ""}), XLSX, false, "", false},
		{"a.pptx", zipOf(t, [2]string{"[Content_Types].xml", ""}, [2]string{"ppt/presentation.xml", ""}), PPTX, false, "", false},
		{"b.epub", zipOf(t, [2]string{"mimetype", "application/epub+zip"}, [2]string{"META-INF/container.xml", ""}), EPUB, false, "", false},
		{"c.odt", zipOf(t, [2]string{"mimetype", "application/vnd.oasis.opendocument.text"}, [2]string{"content.xml", ""}), ODT, false, "", false},
		{"d.ods", zipOf(t, [2]string{"mimetype", "application/vnd.oasis.opendocument.spreadsheet"}), ODS, false, "", false},
		// office/15: a drawing, its template and a standalone chart are
		// documents (they were zips); a JAR-like zip, a plain zip named
		// .odg and a zip with a mimetype docket has no reader for stay zips
		{"f.odg", zipOf(t, [2]string{"mimetype", "application/vnd.oasis.opendocument.graphics"}, [2]string{"content.xml", ""}), ODG, false, "", false},
		{"f.otg", zipOf(t, [2]string{"mimetype", "application/vnd.oasis.opendocument.graphics-template"}, [2]string{"content.xml", ""}), ODG, false, "", false},
		{"noext-odg", zipOf(t, [2]string{"mimetype", "application/vnd.oasis.opendocument.graphics"}, [2]string{"content.xml", ""}), ODG, false, "", false},
		{"g.odc", zipOf(t, [2]string{"mimetype", "application/vnd.oasis.opendocument.chart"}, [2]string{"content.xml", ""}), ODC, false, "", false},
		{"lib.jar", zipOf(t, [2]string{"META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n"}, [2]string{"a/B.class", "x"}), Zip, false, "", false},
		{"h.odg", zipOf(t, [2]string{"notes.txt", "hi"}), Zip, true, "", false},
		{"formula.odf", zipOf(t, [2]string{"mimetype", "application/vnd.oasis.opendocument.formula"}, [2]string{"content.xml", ""}), Zip, false, "", false},
		{"e.zip", zipOf(t, [2]string{"notes.txt", "hi"}), Zip, false, "", false},
		{"cut.docx", docx[:60], DOCX, false, "", false},
		{"a.tar", tarball, Tar, false, "", false},
		{"old.tar", v7, Tar, false, "", false},
		{"noext-tar", tarball, Tar, false, "", false},
		{"a.tar.gz", gzipOf(t, tarball), TarGz, false, "", false},
		{"a.tgz", gzipOf(t, tarball), TarGz, false, "", false},
		{"a.txt.gz", gzipOf(t, []byte("plain text")), Gzip, false, "", false},
		{"a.doc", cfbOf("\x01CompObj", "WordDocument"), DOC, false, "", false},
		{"a.xls", cfbOf("Workbook"), XLS, false, "", false},
		{"old.xls", cfbOf("Book"), XLS, false, "", false},
		{"a.ppt", cfbOf("PowerPoint Document"), PPT, false, "", false},
		{"a.msg", cfbOf("__substg1.0_0037001F", "__properties_version1.0"), MSG, false, "", false},
		{"locked.xlsx", cfbOf("EncryptionInfo", "EncryptedPackage"), OOXMLEncrypted, false, "", false},
		{"other.bin", cfbOf("Contents"), OLE, false, "", false},
		{"broken.doc", append(append([]byte{}, magicOLE...), 1, 2, 3), DOC, false, "", false},
		{"note.txt", []byte("Hello world.\nSecond line.\n"), Text, false, UTF8, false},
		{"note-bom.txt", []byte("\xEF\xBB\xBFHello"), Text, false, UTF8, true},
		{"u16le-bom.txt", utf16Bytes("Hello wörld\n", false, true), Text, false, UTF16LE, true},
		{"u16le.txt", utf16Bytes("Hello wörld, plain text\n", false, false), Text, false, UTF16LE, false},
		{"u16be.txt", utf16Bytes("Hello wörld, plain text\n", true, false), Text, false, UTF16BE, false},
		{"u32le.txt", utf32LEBytes("Hello wörld\n", true), Text, false, UTF32LE, true},
		{"u32le-nobom.txt", utf32LEBytes("Hello wörld\n", false), Text, false, UTF32LE, false},
		{"cp1252.txt", []byte("Gr\xFC\xDFe aus K\xF6ln, sch\xF6ne Gr\xFC\xDFe und \x93Anf\xFChrung\x94.\n"), Text, false, "windows-1252", false},
		{"readme.md", []byte("# Title\n\nSome *text*.\n"), Markdown, false, UTF8, false},
		{"page.html", []byte("<!DOCTYPE html><html><body><p>x</p></body></html>"), HTML, false, UTF8, false},
		{"frag.html", []byte("<h3 class=x>Heading</h3>"), HTML, false, UTF8, false},
		{"page.txt", []byte("<!doctype html>\n<html><body>x</body></html>"), HTML, true, UTF8, false},
		{"u16.html", utf16Bytes("<html><head><meta charset=utf-16></head><body>Hi</body></html>", false, true), HTML, false, UTF16LE, true},
		{"data.xml", []byte("<?xml version=\"1.0\"?>\n<root><a>1</a></root>"), XML, false, UTF8, false},
		{"xhtml.xml", []byte("<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body/></html>"), HTML, false, UTF8, false},
		{"style.xsl", []byte("<?xml version=\"1.0\"?>\n<xsl:stylesheet><xsl:template><html><body/></html></xsl:template></xsl:stylesheet>"), XML, false, UTF8, false},
		{"mail.eml", []byte(mail), EML, false, UTF8, false},
		{"mail.txt", []byte(mail), EML, true, UTF8, false},
		{"mbox", []byte("From ann@example.org Tue Oct  1 12:34:56 2024\nFrom: ann@example.org\nSubject: x\n\nbody\n"), EML, false, UTF8, false},
		{"u16.eml", utf16Bytes(mail, true, false), EML, false, UTF16BE, false},
		{"notmail.txt", []byte("Note: this is text\nAnother: line\n\nbody"), Text, false, UTF8, false},
		{"obj.json", []byte(`{"a": [1, 2, {"b": "c"}]}`), JSON, false, UTF8, false},
		{"rows.json", []byte("{\"a\":1}\n{\"a\":2}\n"), NDJSON, false, UTF8, false},
		{"rows.ndjson", []byte("{\"a\":1}\n{\"a\":2}\n"), NDJSON, false, UTF8, false},
		{"broken.txt", []byte("wombat{\"a\": 1"), Text, false, UTF8, false},
		{"broken.json", []byte(`{"a": 1,,}`), JSON, false, UTF8, false},
		{"nums.csv", []byte("1\n2\n3\n"), CSV, false, UTF8, false},
		{"table", []byte("a,b,c\n1,2,3\n4,5,6\n7,8,9\n"), CSV, false, UTF8, false},
		{"table2", []byte("a\tb\n1\t2\n3\t4\n5\t6\n"), TSV, false, UTF8, false},
		{"doc.rtf", []byte(`{\rtf1\ansi Hello}`), RTF, false, "", false},
		{"blob.bin", []byte{0x00, 0x01, 0x02, 0x03, 0xFF, 0x00, 0x10, 0x80, 0x00, 0x00, 0x07}, Unknown, false, "", false},
		{"spaces.txt", []byte("  \n\t\n  "), Text, false, UTF8, false},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := Detect(p)
			if err != nil {
				t.Fatal(err)
			}
			fromBytes, err := DetectBytes(tc.name, tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if got != fromBytes {
				t.Errorf("Detect %+v != DetectBytes %+v", got, fromBytes)
			}
			if got.Type != tc.typ || got.Mismatch != tc.mismatch || got.Encoding != tc.enc || got.BOM != tc.bom {
				t.Errorf("got %+v, want type=%s mismatch=%v enc=%q bom=%v", got, tc.typ, tc.mismatch, tc.enc, tc.bom)
			}
			if got.MIME == "" {
				t.Errorf("empty MIME")
			}
		})
	}
}

func TestDetectMissing(t *testing.T) {
	if _, err := Detect(filepath.Join(t.TempDir(), "nope.pdf")); err == nil {
		t.Fatal("want an error for a missing file")
	}
}

// TestFixtures runs over the committed fixtures in testdata/.
func TestFixtures(t *testing.T) {
	want := map[string]Info{
		"hello.eml":       {Type: EML, ExtType: EML, Encoding: UTF8},
		"latin1.md":       {Type: Markdown, ExtType: Markdown, Encoding: "windows-1252"},
		"utf16-nobom.txt": {Type: Text, ExtType: Text, Encoding: UTF16LE},
	}
	for name, w := range want {
		got, err := Detect(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		w.MIME = got.MIME
		if got != w {
			t.Errorf("%s: got %+v, want %+v", name, got, w)
		}
	}
}

// TestStrayNULIsText (issue 18): one NUL byte in a long text does not make
// it binary; a head full of NULs still is not text.
func TestStrayNULIsText(t *testing.T) {
	text := []byte(strings.Repeat("Minutes of the meeting, item by item.\n", 40))
	text[100] = 0
	if info, _ := DetectBytes("notes.txt", text); info.Type != Text {
		t.Errorf("a text with one NUL detected as %q", info.Type)
	}
	bin := make([]byte, 4096)
	for i := range bin {
		if i%3 == 0 {
			bin[i] = 'a'
		}
	}
	if info, _ := DetectBytes("blob.txt", bin); info.Type == Text {
		t.Error("a head that is two-thirds NUL should not be text")
	}
}
