package cli_test

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeDOCX writes a minimal DOCX whose body is one paragraph and whose
// docProps/core.xml and docProps/app.xml are given as is.
func writeDOCX(t *testing.T, path, body, core, app string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, m := range [][2]string{
		{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/><Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/></Types>`},
		{"_rels/.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/></Relationships>`},
		{"word/document.xml", `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>` + body + `</w:t></w:r></w:p></w:body></w:document>`},
		{"docProps/core.xml", core},
		{"docProps/app.xml", app},
	} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m[0], Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(m[1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

const coreHead = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">`

func coreXML(inner string) string { return coreHead + inner + `</cp:coreProperties>` }

const goodApp = `<?xml version="1.0" encoding="UTF-8"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Microsoft Office Word</Application><Pages>1</Pages></Properties>`

// TestDOCXBadMetadataKeepsTheBody: one bad byte (or tag, entity, field)
// in a DOCX's docProps/core.xml or app.xml does not lose the file: the
// body lands, and a review reason says what happened to the metadata.
func TestDOCXBadMetadataKeepsTheBody(t *testing.T) {
	dir, inbox := healthProject(t)
	good := coreXML(`<dc:title>Quarterly memo</dc:title><dc:creator>Ann</dc:creator>`)
	cases := map[string]struct{ core, app, review string }{
		"utf8.docx":       {coreXML("<dc:title>Quarterly \xff memo</dc:title><dc:creator>Ann</dc:creator>"), goodApp, "metadata_unreadable: docProps/core.xml is not well-formed XML"},
		"unclosed.docx":   {coreHead + `<dc:title>Quarterly memo</dc:title><dc:creator>Ann</dc:crea`, goodApp, "metadata_unreadable: docProps/core.xml is not well-formed XML"},
		"control.docx":    {coreXML("<dc:title>Quarterly \x01 memo</dc:title>"), goodApp, "metadata_unreadable: docProps/core.xml is not well-formed XML"},
		"charset.docx":    {`<?xml version="1.0" encoding="x-no-such-charset"?>` + strings.TrimPrefix(coreXML(`<dc:title>Quarterly memo</dc:title>`), `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`), goodApp, "metadata_unreadable: docProps/core.xml is not well-formed XML"},
		"huge.docx":       {coreXML(`<dc:title>` + strings.Repeat("Quarterly memo ", 2<<20) + `</dc:title><dc:creator>Ann</dc:creator>`), goodApp, "truncated: docProps/core.xml title has 31457279 characters"},
		"entity.docx":     {coreXML(`<dc:title>Quarterly &bogus; memo</dc:title>`), goodApp, ""}, // read leniently, nothing lost
		"app-utf8.docx":   {good, "<?xml version=\"1.0\"?><Properties><Application>Word \xff</Application><Pages>1</Pages", ""},
		"app-entity.docx": {good, `<?xml version="1.0"?><Properties><Application>&bogus;</Application></Properties>`, ""},
	}
	for name, c := range cases {
		writeDOCX(t, filepath.Join(inbox, name), "The freight contract renews in March "+strings.TrimSuffix(name, ".docx")+".", c.core, c.app)
	}
	// one flipped byte inside the stored (uncompressed) core.xml member:
	// its CRC no longer matches
	p := filepath.Join(inbox, "crc.docx")
	writeDOCX(t, p, "The freight contract renews in March crc.", good, goodApp)
	b, _ := os.ReadFile(p)
	i := bytes.Index(b, []byte("Quarterly memo"))
	if i < 0 {
		t.Fatal("core.xml is not stored uncompressed")
	}
	b[i] = 'X'
	os.WriteFile(p, b, 0o644)
	cases["crc.docx"] = struct{ core, app, review string }{review: "metadata_unreadable: docProps/core.xml could not be read (zip: checksum error"}

	must(t, dir, "load", "--quiet")
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got := query(t, dir, "select status || ' ' || coalesce(error_kind, '-') || ' ' || length(coalesce(title, '')) from raw.documents where rel_path = '"+name+"'")
			if len(got) != 1 || !strings.HasPrefix(got[0], "landed - ") {
				t.Fatalf("want the document landed, got %q", got)
			}
			if text := query(t, dir, "select count(*) from staging.pages p join raw.documents d using (source_hash) where d.rel_path = '"+name+"' and p.text like '%freight contract renews%'"); text[0] != "1" {
				t.Errorf("the body did not land")
			}
			rev := query(t, dir, "select coalesce(string_agg(reason_code || ': ' || message, ' | '), 'none') from staging.reviews r join raw.documents d using (source_hash) where d.rel_path = '"+name+"' and r.reason_code in ('metadata_unreadable', 'truncated')")
			if c.review == "" && rev[0] != "none" || c.review != "" && !strings.Contains(rev[0], c.review) {
				t.Errorf("review reasons about the metadata: got %q, want %q", rev[0], c.review)
			}
			if strings.HasPrefix(c.review, "truncated") && !strings.HasSuffix(got[0], " 4096") {
				t.Errorf("the title should be cut to 4096 characters: %s", got[0])
			}
			if name == "entity.docx" && strings.HasSuffix(got[0], " 0") {
				t.Errorf("the leniently read title was lost: %s", got[0])
			}
		})
	}
}
