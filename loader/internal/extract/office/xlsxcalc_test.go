package office

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// sheetWorkbook is a one-sheet workbook ("Budget") of the given sheetData
// rows, as a script writes one.
func sheetWorkbook(t *testing.T, rows string) string {
	t.Helper()
	sheet := `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` + rows + `</sheetData></worksheet>`
	return writeZip(t, "script.xlsx", map[string]string{
		"[Content_Types].xml":        `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
		"_rels/.rels":                `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml":            `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Budget" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
		"xl/worksheets/sheet1.xml":   sheet,
	})
}

func numCell(ref, v string) string { return `<c r="` + ref + `" t="n"><v>` + v + `</v></c>` }
func strCell(ref, v string) string {
	return `<c r="` + ref + `" t="inlineStr"><is><t>` + v + `</t></is></c>`
}
func fmCell(ref, f string) string { return `<c r="` + ref + `"><f>` + f + `</f><v></v></c>` }

// TestUncalculatedFormulas: formula cells saved without a value (openpyxl
// writes <v></v>, excelize's SetCellFormula no <v>) land as their formula,
// a row of them only is no empty row, a saved value stays, and a warning
// says so (office/27, office/31). They landed empty without a word: the
// totals column and the total row were lost.
func TestUncalculatedFormulas(t *testing.T) {
	p := sheetWorkbook(t, `<row r="1">`+strCell("A1", "Item")+strCell("B1", "Qty")+strCell("C1", "Price")+strCell("D1", "Total")+`</row>`+
		`<row r="2">`+strCell("A2", "Rope")+numCell("B2", "3")+numCell("C2", "12.5")+fmCell("D2", "B2*C2")+`</row>`+
		`<row r="3">`+strCell("A3", "Anchor")+numCell("B3", "1")+numCell("C3", "340")+fmCell("D3", "B3*C3")+`</row>`+
		`<row r="4"><c r="D4"><f>SUM(D2:D3)</f></c></row>`+
		`<row r="5">`+strCell("A5", "Odd")+fmCell("D5", "NOSUCHFUNCTION(1)")+`</row>`+
		`<row r="6">`+strCell("A6", "Saved")+`<c r="D6"><f>B2+B3</f><v>99</v></c></row>`)
	res, err := ExtractXLSX(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, "xlsx", res)
	want := "Item\tQty\tPrice\tTotal\nRope\t3\t12.5\t=B2*C2\nAnchor\t1\t340\t=B3*C3\n\t\t\t=SUM(D2:D3)\nOdd\t\t\t=NOSUCHFUNCTION(1)\nSaved\t\t\t99"
	if got := res.Pages[0].Text; got != want {
		t.Errorf("text %q\nwant %q", got, want)
	}
	w := strings.Join(res.Warnings, " ")
	if !strings.Contains(w, `sheet "Budget": 4 formula cell(s) were saved without their value`) ||
		!strings.Contains(w, "4 landed as their formula, not calculated: docket does not calculate formulas (the spreadsheet program does when it opens the file) (first D2 =B2*C2)") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// TestUncalculatedNotCalculated (office/31, review44's HIGH on office/27):
// no formula is calculated, however costly or circular: office/27's
// excelize engine took over 120 s and 5 GB for =SUM(MUNIT(5000)), built
// 100M-character cells with REPT, and gave a circular reference a value.
func TestUncalculatedNotCalculated(t *testing.T) {
	p := sheetWorkbook(t, `<row r="1">`+fmCell("A1", "SUM(MUNIT(5000))")+fmCell("B1", `LEN(REPT("x",100000000))`)+fmCell("C1", "FACT(1000000000)")+fmCell("D1", "D1+1")+`</row>`)
	res := extractMeasured(t, p, 64<<20)
	if got, want := res.Pages[0].Text, `=SUM(MUNIT(5000))`+"\t"+`=LEN(REPT("x",100000000))`+"\t=FACT(1000000000)\t=D1+1"; got != want {
		t.Errorf("text %q want %q", got, want)
	}
}

// extractMeasured extracts p and fails when it allocated more than limit
// bytes.
func extractMeasured(t *testing.T, p string, limit uint64) *document.Result {
	t.Helper()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	res, err := ExtractXLSX(context.Background(), p, document.Options{MaxSheetRows: 100000})
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	if a := m1.TotalAlloc - m0.TotalAlloc; a > limit {
		t.Errorf("allocated %d MB, more than %d MB", a>>20, limit>>20)
	} else {
		t.Logf("allocated %d MB", a>>20)
	}
	return res
}

// TestUncalculatedFormulaTextBounded (review45 on office/27+31): the
// formula texts of cells without a value are read before the sheet's rows
// and were kept whole, each twice (60,000 cells of 8,000-character
// formulas, an 860 KB file, held 987 MB whatever max_sheet_rows); past
// maxUncalcBytes of text a workbook, a cell lands empty and the warning
// counts it.
func TestUncalculatedFormulaTextBounded(t *testing.T) {
	defer func(n int) { maxUncalcBytes = n }(maxUncalcBytes)
	maxUncalcBytes = 64 << 10
	fm := "A1+" + strings.Repeat("1+", 2000) + "1" // 4,004 characters
	var rows strings.Builder
	for r := 1; r <= 40; r++ {
		rows.WriteString(`<row r="` + strconv.Itoa(r) + `">` + fmCell("A"+strconv.Itoa(r), fm) + `</row>`)
	}
	res, err := ExtractXLSX(context.Background(), sheetWorkbook(t, rows.String()), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	kept := strings.Count(res.Pages[0].Text, "=A1+")
	if kept != 16 { // 16 x 4,004 bytes fit in 64 KiB, the 17th does not
		t.Errorf("%d formulas landed, want 16", kept)
	}
	if w := strings.Join(res.Warnings, " "); !strings.Contains(w, "24 landed empty (no formula text of their own, or past the first 1048576 cells or 0 MiB of formula text)") {
		t.Errorf("warnings %q", res.Warnings)
	}
}
