package office

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/xuri/excelize/v2"
)

// The merged cells of DOCX, PPTX and XLSX tables are spans, as the PDF
// tables record theirs (office/19): the text at (Row, Col), header row
// first, the positions covered empty. Before, staging.tables.spans was
// empty for every office table: "Sales" over two year columns was a head
// with an empty one beside it, "South" a label for one row of two.

func TestDOCXMergedCellsAreSpans(t *testing.T) {
	tc := func(tcPr, text string) string {
		r := ""
		if text != "" {
			r = `<w:r><w:t>` + text + `</w:t></w:r>`
		}
		return `<w:tc><w:tcPr>` + tcPr + `</w:tcPr><w:p>` + r + `</w:p></w:tc>`
	}
	body := `<w:tbl>` +
		`<w:tr>` + tc(`<w:vMerge w:val="restart"/>`, "Region") + tc(`<w:gridSpan w:val="2"/>`, "Sales") + `</w:tr>` +
		`<w:tr>` + tc(`<w:vMerge/>`, "") + tc("", "2023") + tc("", "2024") + `</w:tr>` +
		`<w:tr>` + tc(`<w:vMerge w:val="restart"/>`, "South") + tc("", "7") + tc("", "9") + `</w:tr>` +
		`<w:tr>` + tc(`<w:vMerge w:val="continue"/>`, "hidden") + tc("", "8") + tc("", "11") + `</w:tr>` +
		`<w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>` + tc("", "x") + tc("", "y") + `</w:tr>` +
		`</w:tbl>`
	m := docxMembers()
	m["word/document.xml"] = `<w:document ` + wNS + `><w:body>` + body + `</w:body></w:document>`
	delete(m, "word/_rels/document.xml.rels")
	res, err := ExtractDOCX(context.Background(), writeZip(t, "m.docx", m), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tables) != 1 {
		t.Fatalf("tables %+v", res.Tables)
	}
	tb := res.Tables[0]
	wantRows := [][]string{{"", "2023", "2024"}, {"South", "7", "9"}, {"", "8", "11"}, {"", "x", "y"}}
	if !reflect.DeepEqual(tb.Header, []string{"Region", "Sales", ""}) || !reflect.DeepEqual(tb.Rows, wantRows) {
		t.Errorf("cells %q / %q", tb.Header, tb.Rows)
	}
	want := []document.CellSpan{{Row: 0, Col: 0, Rows: 2, Cols: 1}, {Row: 0, Col: 1, Rows: 1, Cols: 2}, {Row: 2, Col: 0, Rows: 2, Cols: 1}}
	if !reflect.DeepEqual(tb.Spans, want) {
		t.Errorf("spans %+v, want %+v", tb.Spans, want)
	}
}

func TestPPTXMergedCellsAreSpans(t *testing.T) {
	tc := func(attrs, text string) string {
		r := ""
		if text != "" {
			r = `<a:r><a:t>` + text + `</a:t></a:r>`
		}
		return `<a:tc` + attrs + `><a:txBody><a:p>` + r + `</a:p></a:txBody></a:tc>`
	}
	tbl := `<p:graphicFrame><p:nvGraphicFramePr/><a:graphic><a:graphicData><a:tbl>` +
		`<a:tr>` + tc("", "Region") + tc(` gridSpan="2"`, "Sales") + tc(` hMerge="1"`, "") + `</a:tr>` +
		`<a:tr>` + tc(` rowSpan="2"`, "North") + tc("", "10") + tc("", "12") + `</a:tr>` +
		`<a:tr>` + tc(` vMerge="1"`, "") + tc("", "11") + tc("", "13") + `</a:tr>` +
		`</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
	m := pptxMembers()
	m["ppt/slides/slide2.xml"] = `<p:sld ` + aNS + `><p:cSld><p:spTree>` + tbl + `</p:spTree></p:cSld></p:sld>`
	res, err := ExtractPPTX(context.Background(), writeZip(t, "m.pptx", m), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var tb *document.Table
	for i := range res.Tables {
		if len(res.Tables[i].Header) > 0 && res.Tables[i].Header[0] == "Region" {
			tb = &res.Tables[i]
		}
	}
	if tb == nil {
		t.Fatalf("no Region table in %+v", res.Tables)
	}
	want := []document.CellSpan{{Row: 0, Col: 1, Rows: 1, Cols: 2}, {Row: 1, Col: 0, Rows: 2, Cols: 1}}
	if !reflect.DeepEqual(tb.Spans, want) {
		t.Errorf("spans %+v, want %+v", tb.Spans, want)
	}
}

func TestXLSXMergedCellsAreSpans(t *testing.T) {
	f := excelize.NewFile()
	for _, r := range [][2]string{{"A1", "C1"}, {"C2", "C4"}, {"A4", "A5"}} {
		if err := f.MergeCell("Sheet1", r[0], r[1]); err != nil {
			t.Fatal(err)
		}
	}
	_ = f.SetSheetRow("Sheet1", "A1", &[]any{"Merged heading"})
	_ = f.SetSheetRow("Sheet1", "A2", &[]any{1, 2, 3})
	// row 3 empty: not read, so a span's height counts the rows read
	_ = f.SetSheetRow("Sheet1", "A4", &[]any{"tall", 5})
	_ = f.SetCellValue("Sheet1", "B5", 6)
	res := extractWorkbook(t, f)
	tb := res.Tables[0]
	wantRows := [][]string{{"1", "2", "3"}, {"tall", "5", ""}, {"", "6", ""}}
	if !reflect.DeepEqual(tb.Header, []string{"Merged heading", "", ""}) || !reflect.DeepEqual(tb.Rows, wantRows) {
		t.Errorf("cells %q / %q", tb.Header, tb.Rows)
	}
	want := []document.CellSpan{{Row: 0, Col: 0, Rows: 1, Cols: 3}, {Row: 1, Col: 2, Rows: 2, Cols: 1}, {Row: 2, Col: 0, Rows: 2, Cols: 1}}
	if !reflect.DeepEqual(tb.Spans, want) {
		t.Errorf("spans %+v, want %+v", tb.Spans, want)
	}
}

// extractWorkbook saves f and reads it back with ExtractXLSX.
func extractWorkbook(t *testing.T, f *excelize.File) *document.Result {
	t.Helper()
	p := filepath.Join(t.TempDir(), "w.xlsx")
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	res, err := ExtractXLSX(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
