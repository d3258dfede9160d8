package detect

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

const corpusDir = "../../../../shared/corpus"

// TestCorpus checks known files of the shared corpus (skipped when absent)
// and that no file makes detection fail.
func TestCorpus(t *testing.T) {
	root := filepath.Join(corpusDir, "mixed")
	if _, err := os.Stat(root); err != nil {
		t.Skip("corpus not found")
	}
	want := map[string]string{
		"2023-half-year-analyses-by-segment.xlsx": XLSX,
		"CantinaBand3.wav":                        Audio,
		"README.md":                               Markdown,
		"README.org":                              Org,
		"README.rst":                              RST,
		"arbitrary-records.json":                  JSON,
		"arbitrary-records.ndjson":                NDJSON,
		"codeblock.md":                            Markdown,
		"duplicate-paragraphs.doc":                DOC,
		"empty.txt":                               Empty,
		"example-10k.html":                        HTML,
		"example-steelJIS-datasheet-utf-16.html":  HTML,
		"factbook-utf-16.xml":                     XML,
		"factbook.xml":                            XML,
		"fake-doc.rtf":                            RTF,
		"fake-email.msg":                          MSG,
		"fake-email.txt":                          EML,
		"fake-encrypted.msg":                      MSG,
		"fake-html-cp1252.html":                   HTML,
		"fake-html-lang-de.html":                  HTML,
		"fake-html-with-base64-image.html":        HTML,
		"fake-incomplete-json.txt":                Text,
		"fake-power-point.ppt":                    PPT,
		"fake-power-point-malformed.pptx":         PPTX,
		"fake-text-all-whitespace.txt":            Text,
		"fake-text-utf-16-be.txt":                 Text,
		"fake-text-utf-16-le.txt":                 Text,
		"fake-text-utf-16.txt":                    Text,
		"fake-text-utf-32.txt":                    Text,
		"fake-text.txt":                           Text,
		"fake.odt":                                ODT,
		"grid_offset_error.docx":                  DOCX,
		"hebrew-text-base64-iso88598i.txt":        Text,
		"password_protected.xlsx":                 OOXMLEncrypted,
		"science-exploration-1p.pptx":             PPTX,
		"simple.json":                             JSON,
		"simple.ndjson":                           NDJSON,
		"simple.zip":                              Zip,
		"stanley-cups-utf-16.csv":                 CSV,
		"stanley-cups.tsv":                        TSV,
		"tests-example.xls":                       XLS,
		"umlauts-non-utf8.md":                     Markdown,
		"winter-sports.epub":                      EPUB,
		"eml/fake-email-utf-16-be.eml":            EML,
		"eml/fake-email-utf-16-le.eml":            EML,
		"eml/fake-email-utf-16.eml":               EML,
		"eml/email-no-html-content-1.eml":         EML,
		"eml/signed-doc.p7s":                      EML,
		"eml/mime-no-body.eml":                    EML,
		"img/DA-1p.heic":                          HEIC,
		"img/DA-1p.jpg":                           JPEG,
		"img/DA-1p.png":                           PNG,
		"img/bmp_24.bmp":                          BMP,
		"img/layout-parser-paper-combined.tiff":   TIFF,
		"language-docs/eng_spa_mult.doc":          DOCX, // really a DOCX under a .doc name
		"language-docs/eng_spa_mult.ppt":          PPTX,
		"language-docs/eng_spa_mult.eml":          EML,
		"pdf/DA-1p.pdf":                           PDF,
		"unsupported/factbook.xsl":                XML,
	}
	seen := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := Detect(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if testing.Verbose() {
			t.Logf("%-60s %-16s ext=%-9s mismatch=%-5v enc=%s bom=%v", rel, info.Type, info.ExtType, info.Mismatch, info.Encoding, info.BOM)
		}
		if w, ok := want[rel]; ok {
			seen++
			if info.Type != w {
				t.Errorf("%s: type %q, want %q", rel, info.Type, w)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(want) {
		t.Errorf("checked %d of %d listed files", seen, len(want))
	}
}
