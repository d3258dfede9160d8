package office

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/xuri/excelize/v2"
)

// lineChart is a chart part of nser line series of pts cached points.
func lineChart(nser, pts int) string {
	var b strings.Builder
	b.WriteString(`<c:chartSpace ` + chartNS + `><c:chart><c:plotArea><c:lineChart>`)
	for s := 0; s < nser; s++ {
		b.WriteString(`<c:ser><c:val><c:numRef><c:f>S!$A$1:$A$9</c:f><c:numCache>`)
		for i := 0; i < pts; i++ {
			fmt.Fprintf(&b, `<c:pt idx="%d"><c:v>%d</c:v></c:pt>`, i, i)
		}
		b.WriteString(`</c:numCache></c:numRef></c:val></c:ser>`)
	}
	b.WriteString(`</c:lineChart></c:plotArea></c:chart></c:chartSpace>`)
	return b.String()
}

func tableCells(res *document.Result) (cells int) {
	for _, tb := range res.Tables {
		cells += len(tb.Header)
		for _, r := range tb.Rows {
			cells += len(r)
		}
	}
	return cells
}

// TestChartsBoundedPerDocument (office/29, review44's HIGH on office/24):
// maxChartCells bounds a document's charts together, a chart part lands
// once however many relationships name it, and a chart's rows stay within
// loader.max_sheet_rows as a sheet's do, each cut warned and flagged. One
// chart part of 50000 points named by 100 relationships of a slide landed
// 101 tables (10M cells, 7.8 GB); 10 excelize charts over a sheet's whole
// columns landed 10x the rows the sheet could.
func TestChartsBoundedPerDocument(t *testing.T) {
	t.Run("one part, many relationships", func(t *testing.T) {
		var rels strings.Builder
		for i := 0; i < 100; i++ {
			rels.WriteString(chartRel("rId"+strconv.Itoa(100+i), "chart", "../charts/chart1.xml"))
		}
		m := pptxMembers()
		m["ppt/slides/_rels/slide2.xml.rels"] = chartRels(rels.String())
		m["ppt/charts/chart1.xml"] = lineChart(1, 50000)
		p := writeZip(t, "amp.pptx", m)
		var res *document.Result
		var err error
		alloc := allocated(func() { res, err = ExtractPPTX(context.Background(), p, document.Options{}) })
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d tables, %d cells, %d MB allocated", len(res.Tables), tableCells(res), alloc>>20)
		// pptxMembers' slide table, and the chart once
		if len(res.Tables) != 2 || len(res.Tables[1].Rows) != DefaultMaxSheetRows {
			t.Fatalf("%d tables, the chart's %d rows", len(res.Tables), len(res.Tables[len(res.Tables)-1].Rows))
		}
		if w := strings.Join(res.Warnings, " "); !strings.Contains(w, "chart ppt/charts/chart1.xml: more than 10000 rows of data (loader.max_sheet_rows, as a sheet's)") || !res.Flagged() {
			t.Errorf("warnings %q", res.Warnings)
		}
		if alloc > 512<<20 {
			t.Errorf("allocated %d MB", alloc>>20)
		}
	})
	t.Run("many parts", func(t *testing.T) {
		defer func(n int) { maxChartCells = n }(maxChartCells)
		maxChartCells = 2500
		var rels strings.Builder
		m := pptxMembers()
		for i := 1; i <= 4; i++ {
			rels.WriteString(chartRel("rId"+strconv.Itoa(100+i), "chart", "../charts/chart"+strconv.Itoa(i)+".xml"))
			m["ppt/charts/chart"+strconv.Itoa(i)+".xml"] = lineChart(10, 90) // 1001 cells with its category column and header
		}
		m["ppt/slides/_rels/slide2.xml.rels"] = chartRels(rels.String())
		res, err := ExtractPPTX(context.Background(), writeZip(t, "many.pptx", m), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if cells := tableCells(res) - 4; cells > maxChartCells || cells < maxChartCells-11 {
			t.Errorf("charts landed %d cells", cells)
		}
		w := strings.Join(res.Warnings, "\n")
		if !strings.Contains(w, "chart ppt/charts/chart3.xml: the document's charts hold more than 2500 cells of data: the rest were not read") ||
			!strings.Contains(w, "chart ppt/charts/chart4.xml: the document's charts hold more than 2500 cells of data: its data was not read") || !res.Flagged() {
			t.Errorf("warnings %q", res.Warnings)
		}
	})
	t.Run("xlsx charts over whole columns", func(t *testing.T) {
		rows := 3000
		f := excelize.NewFile()
		sw, err := f.NewStreamWriter("Sheet1")
		if err != nil {
			t.Fatal(err)
		}
		for r := 1; r <= rows; r++ {
			cell, _ := excelize.CoordinatesToCellName(1, r)
			_ = sw.SetRow(cell, []any{r, r * 2})
		}
		_ = sw.Flush()
		for i := 0; i < 5; i++ {
			cell, _ := excelize.CoordinatesToCellName(4, 1+i*20)
			if err := f.AddChart("Sheet1", cell, &excelize.Chart{Type: excelize.Line, Series: []excelize.ChartSeries{{Name: "Sheet1!$A$1", Categories: fmt.Sprintf("Sheet1!$A$1:$A$%d", rows), Values: fmt.Sprintf("Sheet1!$B$1:$B$%d", rows)}}}); err != nil {
				t.Fatal(err)
			}
		}
		p := t.TempDir() + "/many.xlsx"
		if err := f.SaveAs(p); err != nil {
			t.Fatal(err)
		}
		res, err := ExtractXLSX(context.Background(), p, document.Options{MaxSheetRows: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Tables) != 6 {
			t.Fatalf("%d tables", len(res.Tables))
		}
		for _, tb := range res.Tables {
			if len(tb.Rows) > 1000 {
				t.Errorf("a table of %d rows", len(tb.Rows))
			}
		}
		if w := strings.Join(res.Warnings, "\n"); strings.Count(w, "more than 1000 rows of data (loader.max_sheet_rows, as a sheet's)") != 5 {
			t.Errorf("warnings %q", res.Warnings)
		}
	})
}
