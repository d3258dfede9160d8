package office

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/xuri/excelize/v2"
)

// TestChartXValuesAndEmbeddedData (office/23): a scatter chart whose two
// series have x values of their own lands a pair of columns per series
// (the second series' y values stood against the first one's x values,
// its own x values lost); a chart whose caches are empty reads its data
// from the workbook embedded beside it, a sheet other than the first
// (it landed "Chart: ..." and a header of "Series 1", no data, no word);
// with no workbook to read, a warning says so.
func TestChartXValuesAndEmbeddedData(t *testing.T) {
	const cNS = `xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	cache := func(kind string, vals ...string) string {
		s := `<c:` + kind + `><c:ptCount val="` + string(rune('0'+len(vals))) + `"/>`
		for i, v := range vals {
			s += `<c:pt idx="` + string(rune('0'+i)) + `"><c:v>` + v + `</c:v></c:pt>`
		}
		return s + `</c:` + kind + `>`
	}
	xy := func(name string, xs, ys []string) string {
		return `<c:ser><c:tx><c:strRef><c:f>S!$B$1</c:f>` + cache("strCache", name) + `</c:strRef></c:tx>` +
			`<c:xVal><c:numRef><c:f>S!$A$2:$A$4</c:f>` + cache("numCache", xs...) + `</c:numRef></c:xVal>` +
			`<c:yVal><c:numRef><c:f>S!$B$2:$B$4</c:f>` + cache("numCache", ys...) + `</c:numRef></c:yVal></c:ser>`
	}
	chart := func(title, plot, extra string) string {
		return `<c:chartSpace ` + cNS + `><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>` + title + `</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea>` +
			plot + `</c:plotArea></c:chart>` + extra + `</c:chartSpace>`
	}
	scatter := chart("Runs", `<c:scatterChart>`+xy("Run A", []string{"1", "2", "3"}, []string{"10", "20", "30"})+xy("Run B", []string{"1.5", "2.5", "3.5"}, []string{"11", "21", "31"})+`</c:scatterChart>`, "")
	empty := `<c:barChart><c:ser><c:tx><c:strRef><c:f>Data!$B$1</c:f></c:strRef></c:tx><c:cat><c:strRef><c:f>Data!$A$2:$A$4</c:f></c:strRef></c:cat><c:val><c:numRef><c:f>Data!$B$2:$B$4</c:f></c:numRef></c:val></c:ser></c:barChart>`
	embedded := chart("Units", empty, `<c:externalData r:id="rE"/>`)
	orphan := chart("Orphan", empty, "")

	wb := excelize.NewFile()
	if _, err := wb.NewSheet("Data"); err != nil {
		t.Fatal(err)
	}
	_ = wb.SetSheetRow("Data", "B1", &[]any{"Units sold"})
	for i, r := range [][]any{{"Alpha", 11}, {"Beta", 22}, {"Gamma", 33}} {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		_ = wb.SetSheetRow("Data", cell, &r)
	}
	var xlsx bytes.Buffer
	if err := wb.Write(&xlsx); err != nil {
		t.Fatal(err)
	}
	rel := func(id, typ, target string) string {
		return `<Relationship Id="` + id + `" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/` + typ + `" Target="` + target + `"/>`
	}
	rels := func(s string) string {
		return `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + s + `</Relationships>`
	}
	m := pptxMembers()
	m["ppt/slides/_rels/slide2.xml.rels"] = rels(rel("rId2", "chart", "../charts/chart1.xml") + rel("rId3", "chart", "../charts/chart2.xml") + rel("rId4", "chart", "../charts/chart3.xml"))
	m["ppt/charts/chart1.xml"] = scatter
	m["ppt/charts/chart2.xml"] = embedded
	m["ppt/charts/_rels/chart2.xml.rels"] = rels(rel("rE", "package", "../embeddings/Microsoft_Excel_Worksheet.xlsx"))
	m["ppt/embeddings/Microsoft_Excel_Worksheet.xlsx"] = xlsx.String()
	m["ppt/charts/chart3.xml"] = orphan
	res, err := ExtractPPTX(context.Background(), writeZip(t, "charts.pptx", m), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tables) < 3 {
		t.Fatalf("tables %+v", res.Tables)
	}
	got := res.Tables[len(res.Tables)-3:]
	if h, r := got[0].Header, got[0].Rows; !reflect.DeepEqual(h, []string{"Run A (x)", "Run A", "Run B (x)", "Run B"}) ||
		!reflect.DeepEqual(r, [][]string{{"1", "10", "1.5", "11"}, {"2", "20", "2.5", "21"}, {"3", "30", "3.5", "31"}}) {
		t.Errorf("scatter %q / %q", h, r)
	}
	if h, r := got[1].Header, got[1].Rows; !reflect.DeepEqual(h, []string{"", "Units sold"}) ||
		!reflect.DeepEqual(r, [][]string{{"Alpha", "11"}, {"Beta", "22"}, {"Gamma", "33"}}) {
		t.Errorf("embedded data %q / %q", h, r)
	}
	if w := strings.Join(res.Warnings, "\n"); strings.Count(w, "hold no cached values") != 1 || !strings.Contains(w, "chart3.xml") {
		t.Errorf("warnings %q", res.Warnings)
	}
}
