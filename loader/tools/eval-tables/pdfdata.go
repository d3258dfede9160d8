package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/tools/internal/npmpkg"
)

// The pdfdata set (since session 27): real PDFs with the rows another
// extractor's tests expect, read from the npm package pdf-data-parser
// (MIT; a PDF.js-based reader of tabular data), version pdfDataVersion,
// where `npm pack` puts it (-npm-cache; fetched when missing, a skip line
// when npm cannot fetch it). Nothing of it is copied into this repository.
// Its test/data/pdf holds US public statistics (county voter registration
// counts, election results, census class codes, a file-format
// description) and test/expected/PdfDataParser/NAME.json one grid per
// document: the rows of its table over the pages its test names, each
// page's repeated head row and page head left out (options of that test,
// listed in pdfDataDocs). A document has no box, so there is no detection
// figure: docket's tables on those pages that are mostly the expected
// grid's text (pdfDataOwn) are joined in page order, a row repeating the
// first table's head dropped, and scored against the grid (cell content,
// adjacency, rows found whole). Split by name like ICDAR EU (reportSplit:
// sha256 of the name, odd first byte = report).
const pdfDataVersion = "1.2.22"

// pdfDataDoc is one scored document: its expectation file (without
// .json) and the pages the test reads (nil: every page).
type pdfDataDoc struct {
	name, expected string
	pages          []int
	options        string // the test's options, for -v
}

// pdfDataDocs are the package's test documents with an expectation
// (helloworld, one word, is no table; helloworld-protected has none).
var pdfDataDocs = []pdfDataDoc{
	{"2023-Registered-Voter-Count", "2023-Registered-Voter-Count_data", nil, "pageHeader 124, rows of 3 cells"},
	{"2024presgeresults", "2024presgeresults", []int{1}, "page 1, pageHeader 80, rows of 3+ cells, missing values"},
	{"ClassCodes", "ClassCodes", nil, "cell lines joined"},
	{"CoJul22", "CoJul22", nil, "repeating headers, missing values"},
	{"CongJul22", "CongJul22", nil, "missing values"},
	{"Nat_State_Topic_File_formats", "Nat_State_Topic_File_formats", nil, "the table under the heading 'Government Units File Format', rows of 3+ cells"},
	{"state_voter_registration_jan2024", "state_voter_registration_jan2024", []int{3, 4, 5}, "pages 3-5, pageHeader 64, repeating headers"},
}

// readPdfDataGrid reads an expectation: rows of strings, nulls empty.
func readPdfDataGrid(f string) ([][]string, error) {
	b, err := os.ReadFile(f)
	if err != nil {
		return nil, err
	}
	var raw [][]*string
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	rows := make([][]string, len(raw))
	for i, r := range raw {
		rows[i] = make([]string, len(r))
		for j, c := range r {
			if c != nil {
				rows[i][j] = *c
			}
		}
	}
	return rows, nil
}

// pdfDataOwn: at least half of the table's non-empty cells are cells of
// the expected grid (whitespace folded), so the table is (part of) the
// expected one and not another table of the document.
func pdfDataOwn(d document.Table, want map[string]bool) bool {
	n, in := 0, 0
	for _, r := range rowsOf(d) {
		for _, c := range r {
			if c = norm(c); c != "" {
				n++
				if want[c] {
					in++
				}
			}
		}
	}
	return n > 0 && 2*in >= n
}

// pdfDataJoin joins the own tables' rows in page order, leaving out a
// later table's first row when it repeats the first table's (a head
// repeated on each page, as the expectations leave it out).
func pdfDataJoin(own []document.Table) document.Table {
	var rows [][]string
	head := ""
	for i, d := range own {
		rs := rowsOf(d)
		if i == 0 && len(rs) > 0 {
			head = rowKey(rs[0])
		} else if len(rs) > 0 && rowKey(rs[0]) == head {
			rs = rs[1:]
		}
		rows = append(rows, rs...)
	}
	return document.Table{Rows: rows}
}

// pdfDataScore scores one document into t.
func pdfDataScore(ex *pdf.Extractor, dir string, doc pdfDataDoc, t *tally, o opts) error {
	grid, err := readPdfDataGrid(filepath.Join(dir, "package", "test", "expected", "PdfDataParser", doc.expected+".json"))
	if err != nil {
		return err
	}
	f := filepath.Join(dir, "package", "test", "data", "pdf", doc.name+".pdf")
	res, err := ex.Extract(context.Background(), f, document.Options{})
	if err != nil {
		return fmt.Errorf("%s: %w", f, err)
	}
	t.docs++
	want := map[string]bool{}
	for _, r := range grid {
		for _, c := range r {
			if c = norm(c); c != "" {
				want[c] = true
			}
		}
	}
	onPage := func(p int) bool { return doc.pages == nil || slices.Contains(doc.pages, p) }
	var own []document.Table
	for _, d := range res.Tables {
		if !onPage(d.Page) {
			continue
		}
		if pdfDataOwn(d, want) {
			own = append(own, d)
		} else {
			t.unmatched(d)
		}
	}
	var joined *document.Table
	if len(own) > 0 {
		j := pdfDataJoin(own)
		joined = &j
	}
	s := t.pair(gridCells(grid), joined)
	if o.verbose {
		nr := 0
		if joined != nil {
			nr = len(joined.Rows)
		}
		fmt.Printf("   %s (%s): cell %.3f (%d of %d tables its own, %dx%d vs expected %dx%d)\n", doc.name, doc.options, s,
			len(own), len(res.Tables), nr, ncols(rowsOfPtr(joined)), len(grid), ncols(grid))
	}
	if o.show == doc.name {
		fmt.Printf("== expected %s\n", doc.expected)
		for _, r := range grid {
			fmt.Printf("   %q\n", r)
		}
		showDets(res.Tables)
	}
	return nil
}

func rowsOfPtr(d *document.Table) [][]string {
	if d == nil {
		return nil
	}
	return rowsOf(*d)
}

// printPdfData prints the pdfdata set's two splits, or a skip line.
func printPdfData(ex *pdf.Extractor, cache string, o opts) {
	dir, err := npmpkg.Dir(cache, "pdf-data-parser", pdfDataVersion)
	if err != nil {
		fmt.Printf("pdfdata: not found and not fetched (%v), skipped\n", err)
		return
	}
	var tune, report tally
	for _, doc := range pdfDataDocs {
		t, q := &tune, o
		if reportSplit(doc.name) {
			t, q = &report, o.forSplit(true, doc.name)
		}
		if err := pdfDataScore(ex, dir, doc, t, q); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	about := "US public statistics PDFs with the rows the npm package pdf-data-parser " + pdfDataVersion + "'s tests expect; no boxes: no detection figure"
	tune.print(fmt.Sprintf("pdfdata/tune: %d documents (%s)", tune.docs, about), "TUNED ON since session 27", true)
	report.print(fmt.Sprintf("pdfdata/report: %d documents", report.docs), "report split: not looked at when changing rules", true)
}
