package office

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/extracttest"
	"github.com/xuri/excelize/v2"
)

// chartXML is a bar chart part as Word and PowerPoint write it: series
// names, categories and values in caches beside their cell references.
func chartXML(title string) string {
	ser := func(i int, name string, vals ...string) string {
		s := `<c:ser><c:idx val="` + string(rune('0'+i)) + `"/><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>` + name + `</c:v></c:pt></c:strCache></c:strRef></c:tx>` +
			`<c:cat><c:strRef><c:f>Sheet1!$A$2:$A$4</c:f><c:strCache><c:ptCount val="3"/>` +
			`<c:pt idx="0"><c:v>North</c:v></c:pt><c:pt idx="1"><c:v>South</c:v></c:pt><c:pt idx="2"><c:v>West</c:v></c:pt></c:strCache></c:strRef></c:cat>` +
			`<c:val><c:numRef><c:f>Sheet1!$B$2:$B$4</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="3"/>`
		for j, v := range vals {
			if v != "" {
				s += `<c:pt idx="` + string(rune('0'+j)) + `"><c:v>` + v + `</c:v></c:pt>`
			}
		}
		return s + `</c:numCache></c:numRef></c:val></c:ser>`
	}
	return `<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart>` +
		`<c:title><c:tx><c:rich><a:p><a:r><a:t>` + title + `</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart>` +
		ser(0, "2023", "10", "7.5", "3") + ser(1, "2024", "12", "", "4") +
		`</c:barChart></c:plotArea><c:legend><c:txPr><a:p><a:r><a:t>legend text</a:t></a:r></a:p></c:txPr></c:legend></c:chart></c:chartSpace>`
}

var chartRows = [][]string{{"North", "10", "12"}, {"South", "7.5", ""}, {"West", "3", "4"}}

// TestCharts: chart series (names, categories, values) of DOCX and PPTX
// land as a caption and a table; also in Strict namespaces.
func TestCharts(t *testing.T) {
	rel := func(id, typ, target string) string {
		return `<Relationship Id="` + id + `" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/` + typ + `" Target="` + target + `"/>`
	}
	rels := func(s string) string {
		return `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + s + `</Relationships>`
	}
	docx := docxMembers()
	docx["word/_rels/document.xml.rels"] = strings.Replace(docx["word/_rels/document.xml.rels"], "</Relationships>", rel("rC", "chart", "charts/chart1.xml")+"</Relationships>", 1)
	docx["word/charts/chart1.xml"] = chartXML("Sales by region")
	pptx := pptxMembers()
	pptx["ppt/slides/_rels/slide2.xml.rels"] = rels(rel("rId2", "chart", "../charts/chart7.xml"))
	pptx["ppt/charts/chart7.xml"] = chartXML("Sales by region")
	for _, c := range []struct {
		name    string
		members map[string]string
		extract func(context.Context, string, document.Options) (*document.Result, error)
		page    int
	}{
		{"chart.docx", docx, ExtractDOCX, 2},
		{"chart.pptx", pptx, ExtractPPTX, 2}, // slide2.xml is the second slide shown
		{"strict-chart.docx", strictMembers(docx), ExtractDOCX, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := c.extract(context.Background(), writeZip(t, c.name, c.members), document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			extracttest.Conform(t, c.name, res)
			tb := res.Tables[len(res.Tables)-1]
			if !reflect.DeepEqual(tb.Header, []string{"", "2023", "2024"}) || !reflect.DeepEqual(tb.Rows, chartRows) || tb.Page != c.page {
				t.Errorf("chart table %+v", tb)
			}
			var caption bool
			for _, e := range res.Elements {
				caption = caption || e.Category == document.Caption && e.Text == "Chart: Sales by region"
			}
			if !caption || strings.Contains(res.Pages[c.page-1].Text, "legend text") {
				t.Errorf("caption %v, page text %q", caption, res.Pages[c.page-1].Text)
			}
			if !strings.HasPrefix(c.name, "strict") {
				extracttest.Golden(t, c.name, res, err)
			}
		})
	}
}

// TestXLSXChart: a chart excelize draws on a sheet lands on that sheet's
// page, with its series read from the chart part.
func TestXLSXChart(t *testing.T) {
	f := excelize.NewFile()
	_ = f.SetSheetRow("Sheet1", "A1", &[]any{"Region", "2023", "2024"})
	_ = f.SetSheetRow("Sheet1", "A2", &[]any{"North", 10, 12})
	_ = f.SetSheetRow("Sheet1", "A3", &[]any{"South", 7.5, nil})
	_ = f.SetSheetRow("Sheet1", "A4", &[]any{"West", 3, 4})
	if _, err := f.NewSheet("Notes"); err != nil {
		t.Fatal(err)
	}
	_ = f.SetCellValue("Notes", "A1", "see the chart")
	err := f.AddChart("Sheet1", "E1", &excelize.Chart{Type: excelize.Col, Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "Sales by region"}}},
		Series: []excelize.ChartSeries{
			{Name: "Sheet1!$B$1", Categories: "Sheet1!$A$2:$A$4", Values: "Sheet1!$B$2:$B$4"},
			{Name: "Sheet1!$C$1", Categories: "Sheet1!$A$2:$A$4", Values: "Sheet1!$C$2:$C$4"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	res := extractWorkbook(t, f)
	extracttest.Conform(t, "xlsx", res)
	if len(res.Tables) != 3 {
		t.Fatalf("tables %+v", res.Tables)
	}
	if tb := res.Tables[1]; !reflect.DeepEqual(tb.Header, []string{"", "2023", "2024"}) || !reflect.DeepEqual(tb.Rows, chartRows) || tb.Page != 1 {
		t.Errorf("chart table %+v", tb)
	}
	extracttest.Golden(t, "chart.xlsx", res, err)
}
