package office

import (
	"archive/zip"
	"context"
	"io"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/extracttest"
	"github.com/xuri/excelize/v2"
)

// transitionalNS matches Transitional namespaces and relationship types
// (not the OPC package ones, which Strict keeps).
var transitionalNS = regexp.MustCompile(`http://schemas\.openxmlformats\.org/(officeDocument|wordprocessingml|presentationml|spreadsheetml|drawingml)/2006/`)

// toStrict rewrites a part the way a Strict (ISO/IEC 29500-1 §A) writer
// names it.
func toStrict(s string) string {
	return transitionalNS.ReplaceAllString(s, "http://purl.oclc.org/ooxml/$1/")
}

func strictMembers(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = toStrict(v)
	}
	return out
}

// zipMembers reads every member of a zip file.
func zipMembers(t *testing.T, p string) map[string]string {
	t.Helper()
	zr, err := zip.OpenReader(p)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = string(b)
	}
	return out
}

// TestStrictOOXML: the same DOCX, PPTX and XLSX written with Strict
// namespaces give exactly what the Transitional ones give (a Strict DOCX
// used to land with 0 characters and no warning).
func TestStrictOOXML(t *testing.T) {
	book := excelize.NewFile()
	_ = book.SetSheetRow("Sheet1", "A1", &[]any{"Region", "Sales"})
	_ = book.SetSheetRow("Sheet1", "A2", &[]any{"North", 12.5})
	xlsx := filepath.Join(t.TempDir(), "t.xlsx")
	if err := book.SaveAs(xlsx); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		members map[string]string
		extract func(context.Context, string, document.Options) (*document.Result, error)
	}{
		{"t.docx", docxMembers(), ExtractDOCX},
		{"t.pptx", pptxMembers(), ExtractPPTX},
		{"t.xlsx", zipMembers(t, xlsx), ExtractXLSX},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			strict := strictMembers(c.members)
			if reflect.DeepEqual(strict, c.members) {
				t.Fatal("fixture has no Transitional namespace to rewrite")
			}
			want, err := c.extract(context.Background(), writeZip(t, c.name, c.members), document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.extract(context.Background(), writeZip(t, "strict-"+c.name, strict), document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, c.name, got)
			if len(strings.TrimSpace(want.Pages[0].Text)) == 0 {
				t.Fatal("transitional fixture extracted empty")
			}
			extracttest.Golden(t, "strict-"+c.name, got, err)
			if !reflect.DeepEqual(got.Pages, want.Pages) || !reflect.DeepEqual(got.Elements, want.Elements) || !reflect.DeepEqual(got.Tables, want.Tables) {
				t.Errorf("strict differs:\n got %+v\nwant %+v", got.Pages, want.Pages)
			}
		})
	}
}

func TestTransitional(t *testing.T) {
	for in, want := range map[string]string{
		"http://purl.oclc.org/ooxml/wordprocessingml/main":                       "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
		"http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument": "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument",
		"http://schemas.openxmlformats.org/package/2006/relationships":           "http://schemas.openxmlformats.org/package/2006/relationships",
		"urn:other": "urn:other",
	} {
		if got := transitional(in); got != want {
			t.Errorf("transitional(%q) = %q, want %q", in, got, want)
		}
	}
}
