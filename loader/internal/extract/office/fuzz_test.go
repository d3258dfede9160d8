package office

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/document/doctest"
)

// FuzzDOCXXML: the office XML readers never panic and keep the result's
// invariants, whatever the document body and core properties hold.
func FuzzDOCXXML(f *testing.F) {
	f.Add([]byte(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hello</w:t></w:r></w:p></w:body></w:document>`),
		[]byte(`<cp:coreProperties xmlns:cp="x" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T\xff</dc:title></cp:coreProperties>`))
	f.Add([]byte(`<w:document><w:body><w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:body></w:document>`), []byte(`<x/>`))
	f.Add([]byte(`<!DOCTYPE d [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><d>&b;</d>`), []byte{})
	path := filepath.Join(f.TempDir(), "fuzz.docx")
	f.Fuzz(func(t *testing.T, body, core []byte) {
		out, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		zw := zip.NewWriter(out)
		for name, data := range map[string][]byte{
			"[Content_Types].xml": []byte(`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`),
			"_rels/.rels":         []byte(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`),
			"word/document.xml":   body,
			"docProps/core.xml":   core,
		} {
			w, _ := zw.Create(name)
			w.Write(data)
		}
		zw.Close()
		out.Close()
		res, err := ExtractDOCX(context.Background(), path, document.Options{MaxSheetRows: 100})
		if err != nil {
			return
		}
		if err := doctest.Check(res); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzCSV: the CSV reader never panics and keeps the result's invariants.
func FuzzCSV(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "\"quoted, comma\",x\n\"unterminated\n", "caf\xe9;cr\xe8me\n", "\xff\xfea\x00,\x00b\x00"} {
		f.Add([]byte(s))
	}
	path := filepath.Join(f.TempDir(), "fuzz.csv")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		res, err := ExtractCSV(context.Background(), path, ',', document.Options{MaxSheetRows: 100})
		if err != nil {
			return
		}
		if err := doctest.Check(res); err != nil {
			t.Fatal(err)
		}
	})
}
