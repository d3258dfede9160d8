package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/extracttest"
	"github.com/docket-dev/docket/loader/internal/worker"
	"github.com/xuri/excelize/v2"
)

func zipOf(t *testing.T, members ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i < len(members); i += 2 {
		w, err := zw.Create(members[i])
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(members[i+1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// conformFixtures are small generated documents of every routed type that
// needs neither MuPDF nor Tesseract.
func conformFixtures(t *testing.T) map[string][]byte {
	book := excelize.NewFile()
	_ = book.SetSheetRow("Sheet1", "A1", &[]any{"Region", "Sales"})
	_ = book.SetSheetRow("Sheet1", "A2", &[]any{"Nörth", 12.5})
	var xlsx bytes.Buffer
	if err := book.Write(&xlsx); err != nil {
		t.Fatal(err)
	}
	w := `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	rel := `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`
	return map[string][]byte{
		"a.txt":   []byte("Title Line\n\nA paragraph with ümlauts and a tab\there.\n\n- item one\n- item two\n"),
		"a.md":    []byte("# Head\n\nText **bold**.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"),
		"a.rst":   []byte("Title\n=====\n\nBody text.\n"),
		"a.org":   []byte("#+TITLE: Org\n* Head\nBody.\n"),
		"a.json":  []byte(`{"name": "crane", "tons": 50}`),
		"a.jsonl": []byte("{\"a\": 1}\n{\"a\": 2}\n"),
		"a.xml":   []byte(`<?xml version="1.0"?><r><a>One</a><b>Two</b></r>`),
		"a.html":  []byte("<html><head><title>T</title></head><body><nav>menu</nav><h1>Head</h1><p>Para one.</p><ul><li>x</li></ul><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></body></html>"),
		"a.csv":   []byte("a,b\n1,2\n3,4\n"),
		"a.tsv":   []byte("a\tb\n1\t2\n"),
		"a.vtt":   []byte("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello there.\n"),
		"a.srt":   []byte("1\n00:00:01,000 --> 00:00:02,000\nHello there.\n"),
		"a.tex":   []byte("\\documentclass{article}\\begin{document}\\section{Intro}Some \\emph{text}.\\end{document}"),
		"a.eml":   []byte("From: a@example.com\r\nTo: b@example.com\r\nSubject: Hi\r\nContent-Type: text/plain\r\n\r\nHello body.\r\n"),
		"a.zip":   zipOf(t, "x.txt", "inside"),
		"a.docx":  zipOf(t, "_rels/.rels", rel, "word/document.xml", `<w:document `+w+`><w:body><w:p><w:r><w:t>Docx text.</w:t></w:r></w:p></w:body></w:document>`),
		"a.xlsx":  xlsx.Bytes(),
		"a.odg":   odgFixture(t),
		"a.odc":   zipOf(t, "mimetype", "application/vnd.oasis.opendocument.chart", "content.xml", chartContent("Parcels", "")),
	}
}

// TestConformance runs every fixture through Route: the result holds the
// shared invariants (extracttest.Conform: offsets reproduce element text,
// sequence, one definition of real characters, table links), and garbage
// of each type fails with a *document.Error of a known kind, never a bare
// error or a panic.
func TestConformance(t *testing.T) {
	kinds := map[string]bool{document.KindUnsupported: true, document.KindEncrypted: true, document.KindCorrupt: true, document.KindEmpty: true,
		document.KindTooLarge: true, document.KindUndecodable: true, document.KindTooManyPage: true}
	dir := t.TempDir()
	seen := map[string]bool{}
	for name, data := range conformFixtures(t) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		info, err := detect.Detect(p)
		if err != nil {
			t.Fatal(err)
		}
		seen[info.Type] = true
		t.Run(name, func(t *testing.T) {
			res, err := Route(context.Background(), worker.Request{Path: p, Type: info.Type, MIME: info.MIME, Encoding: info.Encoding})
			if err != nil {
				t.Fatalf("%s (%s): %v", name, info.Type, err)
			}
			extracttest.Conform(t, name, res)
			if document.RealChars(res.Pages[0].Text) == 0 {
				t.Errorf("%s: no text", name)
			}
		})
		t.Run(name+"/garbage", func(t *testing.T) {
			g := filepath.Join(dir, "garbage-"+name)
			junk := append([]byte{}, data[:min(len(data), 40)]...) // the right magic, then noise
			noise := []byte{0xFF, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x0E, 0x0F, 0x10, 0x11, 0x00, 0x00}
			for i := 0; i < 64; i++ {
				junk = append(junk, noise...)
			}
			os.WriteFile(g, junk, 0o644)
			res, err := Route(context.Background(), worker.Request{Path: g, Type: info.Type, MIME: info.MIME, Encoding: info.Encoding})
			if err == nil {
				extracttest.Conform(t, "garbage-"+name, res) // landed what it could: still consistent
				return
			}
			if k := extracttest.ErrorKind(err); !kinds[k] {
				t.Errorf("%s garbage: error %v has no known kind", name, err)
			}
		})
	}
	for _, typ := range []string{detect.Text, detect.Markdown, detect.HTML, detect.DOCX, detect.XLSX, detect.Zip, detect.WebVTT, detect.SRT, detect.LaTeX, detect.EML, detect.CSV, detect.ODG, detect.ODC} {
		if !seen[typ] {
			t.Errorf("no fixture was detected as %s", typ)
		}
	}
}
