package office

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/xuri/excelize/v2"
)

// rewriteMember copies the package at p with member name's text passed
// through f.
func rewriteMember(t *testing.T, p, name string, f func(string) string) string {
	t.Helper()
	zr, err := zip.OpenReader(p)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range zr.File {
		rc, err := m.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if m.Name == name {
			b = []byte(f(string(b)))
		}
		w, err := zw.Create(m.Name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "re-"+filepath.Base(p))
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestXLSXMergesAfterTextNamingThem (office/26, review42 LOW on office/21):
// a cell whose inline string or formula text holds "mergeCells" before
// the sheet's <mergeCells> element no longer hides the sheet's merges
// (the decoder started at the text, failed, and every merge was lost
// with a warning); a prefixed element (x:mergeCells) is found.
func TestXLSXMergesAfterTextNamingThem(t *testing.T) {
	f := excelize.NewFile()
	_ = f.SetSheetRow("Sheet1", "A1", &[]any{"Sales", "", "Notes"})
	_ = f.SetSheetRow("Sheet1", "A2", &[]any{"2023", "2024", "x"})
	_ = f.SetSheetRow("Sheet1", "A3", &[]any{10, 20, "y"})
	if err := f.MergeCell("Sheet1", "A1", "B1"); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "m.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	want := []document.CellSpan{{Row: 0, Col: 0, Rows: 1, Cols: 2}}
	for _, tc := range []struct{ name, cell string }{
		{"inline", `<c r="C3" t="inlineStr"><is><t>see mergeCells below</t></is></c>`},
		{"formula", `<c r="C3" t="str"><f>"mergeCells"</f><v>mergeCells</v></c>`},
		{"tag-like", `<c r="C3" t="inlineStr"><is><t>&lt;mergeCells count="1"&gt;</t></is></c>`},
		{"prefixed", ""},
	} {
		q := rewriteMember(t, p, "xl/worksheets/sheet1.xml", func(s string) string {
			if tc.cell == "" {
				s = strings.Replace(s, "<worksheet ", `<worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" `, 1)
				s = strings.Replace(s, "<mergeCells", "<x:mergeCells", 1)
				return strings.Replace(s, "</mergeCells>", "</x:mergeCells>", 1)
			}
			i := strings.Index(s, `<c r="C3"`)
			j := strings.Index(s[i:], "</c>") + i + 4
			return s[:i] + tc.cell + s[j:]
		})
		res, err := ExtractXLSX(context.Background(), q, document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Tables) != 1 || !reflect.DeepEqual(res.Tables[0].Spans, want) || len(res.Warnings) > 0 {
			t.Errorf("%s: tables %+v, warnings %q", tc.name, res.Tables, res.Warnings)
		}
	}
}

// TestMergeCellsTag: the start tag is found past text naming it, with or
// without a prefix; an end tag, an attribute value, a match at the
// buffer's end and a longer name are not it.
func TestMergeCellsTag(t *testing.T) {
	key := []byte("mergeCells")
	for s, want := range map[string]int{
		`<t>mergeCells</t><mergeCells count="1">`:   17,
		`<f>"mergeCells"</f><x:mergeCells>`:         19,
		`<c a="<mergeCells"/>`:                      -1, // not well-formed anyway
		`</mergeCells>`:                             -1,
		`<mergeCellsX>`:                             -1,
		`<v>1</v><mergeCells`:                       -1, // decided with the next chunk
		`<t>a mergeCells b</t>` + "<mergeCells\n/>": 21,
		`<a b="x" mergeCells="1">`:                  -1,
	} {
		if got := mergeCellsTag([]byte(s), key); got != want {
			t.Errorf("%q: %d, want %d", s, got, want)
		}
	}
}
