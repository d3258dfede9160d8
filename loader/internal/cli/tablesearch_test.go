package cli_test

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// writeTablePDF writes a two-page born-digital PDF: narrative on page 1,
// a caption and a three-column table (cells placed in columns) on page 2.
func writeTablePDF(t *testing.T, path string, rows [][3]string) {
	t.Helper()
	var lines []string
	for range 3 {
		lines = append(lines, "The company shipped goods to many regions during the year, and the",
			"figures for each region are given in the table on the next page.")
	}
	p2 := []pdftest.Text{{X: 72, Y: 150, Size: 11, S: "Table 1: Shipments by region"}}
	for r, row := range rows {
		for c, cell := range row {
			p2 = append(p2, pdftest.Text{X: []float64{72, 260, 400}[c], Y: 190 + 18*float64(r), Size: 10, S: cell})
		}
	}
	if err := os.WriteFile(path, pdftest.Make([]pdftest.Page{{Items: pdftest.Column(72, 52, lines...)}, {Items: p2}}), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSearchFindsTableCells: a value that sits only in a table cell (a PDF
// report's table on page 2, an HTML receipt's tracking number, a Markdown
// table's row) is found by `docket search` in bm25 and hybrid mode, and
// the hit cites the page and says it is a table. Before, chunk_elements
// left Table elements out: no chunk held a table's cells, and the search
// found nothing or only the narrative. A warehouse built before table
// chunks (no table chunk, search_chunks without is_table, stale build
// state) gets them on its next plain `docket build`.
func TestSearchFindsTableCells(t *testing.T) {
	dir, inbox := healthProject(t)
	writeTablePDF(t, filepath.Join(inbox, "report.pdf"), [][3]string{{"Region", "Shipments", "Value"},
		{"North", "1,204", "88,100"}, {"South", "977", "61,250"}, {"Westmarch", "Quillbrook-7731", "45,900"}, {"Total", "4,931", "297,650"}})
	os.WriteFile(filepath.Join(inbox, "receipt.html"), []byte(`<html><head><title>Your order has shipped</title></head><body>
<p>Thank you for your order. Your parcel is on its way and should arrive within three working days.</p>
<table><tr><th>Carrier</th><th>Tracking number</th></tr><tr><td>Parcelway</td><td>PW7Z93KX0041</td></tr></table>
<p>Questions about your delivery? Reply to this message and our team will help.</p></body></html>`), 0o644)
	os.WriteFile(filepath.Join(inbox, "rates.md"), []byte("# Rates\n\nThe rates below apply from March.\n\n"+
		"| Zone | Rate |\n|------|------|\n| Harbour | 12.40 |\n| Vellmoor | 19.85 |\n\nRates are reviewed every year.\n"), 0o644)
	must(t, dir, "load", "--quiet")
	must(t, dir, "build")

	check := func(when string) {
		t.Helper()
		for _, tc := range []struct{ q, path string }{
			{"Quillbrook-7731", "report.pdf"}, {"PW7Z93KX0041", "receipt.html"}, {"Vellmoor", "rates.md"},
		} {
			for _, mode := range []string{"bm25", "hybrid"} {
				var res struct {
					Hits []struct {
						Path  string `json:"path"`
						Page  int    `json:"page"`
						Table bool   `json:"table"`
						Text  string `json:"text"`
					} `json:"hits"`
				}
				out := must(t, dir, "search", tc.q, "--mode", mode, "-k", "3", "--json")
				if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &res); err != nil {
					t.Fatalf("%s: %v\n%s", when, err, out)
				}
				if len(res.Hits) == 0 || res.Hits[0].Path != tc.path || !strings.Contains(res.Hits[0].Text, tc.q) || !res.Hits[0].Table {
					t.Errorf("%s: search %q (%s): want the table chunk of %s first, got %+v", when, tc.q, mode, tc.path, res.Hits)
				} else if tc.path == "report.pdf" && res.Hits[0].Page != 2 {
					t.Errorf("%s: search %q (%s): cites page %d, want 2", when, tc.q, mode, res.Hits[0].Page)
				}
			}
		}
		// the plain output says table and the page
		if out := must(t, dir, "search", "Quillbrook-7731", "--mode", "bm25", "-k", "1"); !strings.Contains(out, "report.pdf  page 2") || !strings.Contains(out, "  table\n") {
			t.Errorf("%s: the hit's line does not cite page 2 as a table:\n%s", when, out)
		}
		// the table is chunked on its own and says Table
		got := query(t, dir, "select count(*) from curated.doc_chunks where list_contains(element_categories, 'Table') and len(element_categories) = 1 and text like '%Quillbrook-7731%' and page_number = 2")
		if got[0] != "1" {
			t.Errorf("%s: table chunks holding the cell: %v, want 1", when, got)
		}
	}
	check("first build")

	// A warehouse built before table chunks: no table chunk, no is_table
	// column, build state of that build (emptied here, as the UDF's new
	// version does). Its next build adds them without --full-refresh.
	db, err := sql.Open("duckdb", filepath.Join(dir, "warehouse.duckdb"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"delete from curated.doc_chunks where list_contains(element_categories, 'Table')",
		"delete from curated.unique_chunks where list_contains(element_categories, 'Table')",
		"delete from retrieval.search_chunks where is_table",
		"alter table retrieval.search_chunks drop column is_table",
		"delete from ops.build_state",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	db.Close()
	must(t, dir, "build")
	check("upgraded warehouse")
}
