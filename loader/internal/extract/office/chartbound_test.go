package office

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/xuri/excelize/v2"
)

const chartNS = `xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`

func chartRel(id, typ, target string) string {
	return `<Relationship Id="` + id + `" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/` + typ + `" Target="` + target + `"/>`
}

func chartRels(s string) string {
	return `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + s + `</Relationships>`
}

// allocated is the bytes f allocates (the package's tests run one at a
// time).
func allocated(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// scatterPPTX is a slide showing a scatter chart whose series i holds one
// point, x value i, at index idx(i).
func scatterPPTX(t *testing.T, nser int, idx func(int) int) string {
	var b strings.Builder
	b.WriteString(`<c:chartSpace ` + chartNS + `><c:chart><c:plotArea><c:scatterChart>`)
	for i := 0; i < nser; i++ {
		fmt.Fprintf(&b, `<c:ser><c:xVal><c:numLit><c:pt idx="%d"><c:v>%d</c:v></c:pt></c:numLit></c:xVal><c:yVal><c:numLit><c:pt idx="%d"><c:v>1</c:v></c:pt></c:numLit></c:yVal></c:ser>`, idx(i), i, idx(i))
	}
	b.WriteString(`</c:scatterChart></c:plotArea></c:chart></c:chartSpace>`)
	m := pptxMembers()
	m["ppt/slides/_rels/slide2.xml.rels"] = chartRels(chartRel("rId2", "chart", "../charts/chart1.xml"))
	m["ppt/charts/chart1.xml"] = b.String()
	return writeZip(t, "scatter.pptx", m)
}

// TestChartScatterSparse (office/24, review42 HIGH on office/23): an x-y
// chart's rows are the point indices its series hold, not every index up
// to the largest: 200 series of one point each at idx 99999 (a 3.8 KB
// slide) made 100000 rows of 400 cells (1.8 GB allocated) and now make
// one row. Rows x columns stay within maxChartCells, with a warning and
// a truncated review past it (800 series at 800 indices: 1.28 million
// cells landed, silently).
func TestChartScatterSparse(t *testing.T) {
	p := scatterPPTX(t, 200, func(int) int { return 99999 })
	var res *document.Result
	var err error
	n := allocated(func() { res, err = ExtractPPTX(context.Background(), p, document.Options{}) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("allocated %d KB", n>>10)
	if n > 64<<20 {
		t.Errorf("allocated %d MB, want < 64", n>>20)
	}
	if len(res.Tables) == 0 {
		t.Fatal("no table")
	}
	tb := res.Tables[len(res.Tables)-1]
	if len(tb.Header) != 400 || len(tb.Rows) != 1 || tb.Rows[0][2] != "1" || tb.Rows[0][3] != "1" || tb.Header[2] != "Series 2 (x)" {
		t.Errorf("table: %d columns, %d rows, %q", len(tb.Header), len(tb.Rows), tb.Rows)
	}

	res, err = ExtractPPTX(context.Background(), scatterPPTX(t, 800, func(i int) int { return i }), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tb = res.Tables[len(res.Tables)-1]
	if cells := len(tb.Header) * (len(tb.Rows) + 1); len(tb.Header) != 1600 || cells > maxChartCells || len(tb.Rows) < 100 {
		t.Errorf("table: %d columns, %d rows", len(tb.Header), len(tb.Rows))
	}
	if w := strings.Join(res.Warnings, "\n"); !strings.Contains(w, "chart1.xml: the document's charts hold more than 250000 cells") {
		t.Errorf("warnings %q", res.Warnings)
	}
	if !res.Flagged() {
		t.Error("not flagged truncated")
	}
}

// embeddedRefsPPTX is a slide showing a bar chart with empty caches whose
// nser series all name cat and val in the embedded workbook's sheet
// Data, which holds rows rows of a label and a number.
func embeddedRefsPPTX(t *testing.T, nser, rows int, cat, val func(int) string) string {
	var b strings.Builder
	b.WriteString(`<c:chartSpace ` + chartNS + `><c:chart><c:plotArea><c:barChart>`)
	for i := 0; i < nser; i++ {
		b.WriteString(`<c:ser><c:cat><c:strRef><c:f>` + cat(i) + `</c:f></c:strRef></c:cat><c:val><c:numRef><c:f>` + val(i) + `</c:f></c:numRef></c:val></c:ser>`)
	}
	b.WriteString(`</c:barChart></c:plotArea></c:chart><c:externalData r:id="rE"/></c:chartSpace>`)
	wb := excelize.NewFile()
	if _, err := wb.NewSheet("Data"); err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= rows; r++ {
		cell, _ := excelize.CoordinatesToCellName(1, r)
		_ = wb.SetSheetRow("Data", cell, &[]any{fmt.Sprintf("label %d", r), r})
	}
	var xlsx bytes.Buffer
	if err := wb.Write(&xlsx); err != nil {
		t.Fatal(err)
	}
	m := pptxMembers()
	m["ppt/slides/_rels/slide2.xml.rels"] = chartRels(chartRel("rId2", "chart", "../charts/chart1.xml"))
	m["ppt/charts/chart1.xml"] = b.String()
	m["ppt/charts/_rels/chart1.xml.rels"] = chartRels(chartRel("rE", "package", "../embeddings/Microsoft_Excel_Worksheet.xlsx"))
	m["ppt/embeddings/Microsoft_Excel_Worksheet.xlsx"] = xlsx.String()
	return writeZip(t, "refs.pptx", m)
}

// TestChartRefsBounded (office/24, review42 HIGH on office/23): a chart
// with empty caches reads its series' references from the embedded
// workbook once per distinct reference, up to the sheet's last row,
// within maxChartCells for the chart: 200 series naming A1:A100000 and
// B1:B100000 of a 10-row sheet read 40 million cells one by one (32 s,
// 4 GB) and now read 10 rows once.
func TestChartRefsBounded(t *testing.T) {
	p := embeddedRefsPPTX(t, 200, 10, func(int) string { return "Data!$A$1:$A$100000" }, func(int) string { return "Data!$B$1:$B$100000" })
	var res *document.Result
	var err error
	n := allocated(func() { res, err = ExtractPPTX(context.Background(), p, document.Options{}) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("allocated %d KB", n>>10)
	if n > 64<<20 {
		t.Errorf("allocated %d MB, want < 64", n>>20)
	}
	tb := res.Tables[len(res.Tables)-1]
	if len(tb.Header) != 201 || len(tb.Rows) != 10 || tb.Rows[9][0] != "label 10" || tb.Rows[9][200] != "10" {
		t.Errorf("table: %d columns, %d rows, last %q", len(tb.Header), len(tb.Rows), tb.Rows[len(tb.Rows)-1][:3])
	}
	if w := strings.Join(res.Warnings, "\n"); strings.Contains(w, "cells of data") {
		t.Errorf("warnings %q", res.Warnings)
	}

	// distinct references, each series its own row of the sheet: the
	// values given to the series are bounded too
	p = embeddedRefsPPTX(t, 3000, 3000, func(i int) string { return "Data!$A$1:$A$3000" }, func(i int) string { return fmt.Sprintf("Data!$B$%d:$B$3000", i+1) })
	res, err = ExtractPPTX(context.Background(), p, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(res.Warnings, "\n"); !strings.Contains(w, "more than 250000 cells") || !res.Flagged() {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// TestCellRangeBudget: the resolver reads references row by row within
// its budget, says when it ran out, and gives what a cancelled context
// says.
func TestCellRangeBudget(t *testing.T) {
	f := excelize.NewFile()
	for r := 1; r <= 5; r++ {
		cell, _ := excelize.CoordinatesToCellName(1, r)
		_ = f.SetSheetRow("Sheet1", cell, &[]any{fmt.Sprint("a", r), fmt.Sprint("b", r), fmt.Sprint("c", r)})
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	g, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	resolve := cellRange(g)
	vals, clipped, err := resolve(context.Background(), []string{"Sheet1!$A$2:$A$4", "'Sheet1'!$B$1:$C$1", "Sheet1!$C$5:$C$900", "Nope!A1"}, 100, 1<<20)
	want := map[string][]string{"Sheet1!$A$2:$A$4": {"a2", "a3", "a4"}, "'Sheet1'!$B$1:$C$1": {"b1", "c1"}, "Sheet1!$C$5:$C$900": {"c5"}}
	if err != nil || clipped || !reflect.DeepEqual(vals, want) {
		t.Errorf("got %q %v %v", vals, clipped, err)
	}
	vals, clipped, _ = resolve(context.Background(), []string{"Sheet1!$A$1:$A$5", "Sheet1!$B$1:$B$5"}, 4, 1<<20)
	if n := len(vals["Sheet1!$A$1:$A$5"]) + len(vals["Sheet1!$B$1:$B$5"]); !clipped || n != 4 {
		t.Errorf("budget 4: %q %v", vals, clipped)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := resolve(ctx, []string{"Sheet1!$A$1:$A$5"}, 100, 1<<20); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}
