package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

// tabExpect is one expected table of the tabula set: the grid the Java
// extractor's tests expect, with its page and box when the expectation is
// a JSON file (page 0 and no box for a CSV: any page, no detection figure).
type tabExpect struct {
	source string // json/NAME.json or csv/NAME.csv
	page   int
	bb     *document.BBox
	area   bool // stream mode: made for a chosen area, not the whole page
	grid   [][]string
}

// tabulaSkip are expectation files left out, and why.
var tabulaSkip = map[string]string{
	"spanning_cells_basic":                             "the same two tables as spanning_cells.json in another mode",
	"TestBasicExtractor-RECTANGLE_TEST_NATURAL_ORDER":  "cell rectangles of a page outside this corpus",
	"TestSpreadsheetExtractor-CELLS":                   "cell rectangles, not cell text",
	"TestCommandLineApp_testGuessOption_no_guessing":   "eu-002 (ICDAR EU material)",
	"TestCommandLineApp_testGuessOption_with_guessing": "eu-002 (ICDAR EU material)",
}

// tabulaQuirks are PDFs whose expectation disagrees with docket's table
// for a reason in the expectation, not in the extraction (each read to
// classify it, the report ones only for that): eval-tables prints each
// split's figures with them (raw) and without them, with these reasons.
// A file whose mismatch is partly docket's (schools: MuPDF returns the
// text clipped at a cell's edge, "Elizab2165") is not listed.
var tabulaQuirks = map[string]string{
	"MultiColumn":                       "the CSV reads the page's two text columns as one table, the right column's rows after the left's (a reading mode); docket finds two tables side by side, every row whole",
	"indictb1h_14":                      "the CSV splits the Hebrew stub column into three columns by indent level and puts an RTL cell's trailing colon first; docket keeps one stub column, numbers and cell texts otherwise agree",
	"AnimalSounds":                      "the CSV was made for an area under the header row ('Animal Action Result'), which docket keeps as the table's header",
	"argentina_diputados_voting_record": "the JSON was made for an area under the header row ('Apellido y Nombre ...'), which docket keeps as the table's header",
}

// tabulaExpectations reads dir/json/*.json and, for PDFs without one,
// dir/csv/*.csv, keyed by PDF path. A JSON file holds every table the
// extractor found on a page (lattice or stream mode); a CSV one grid
// (some were made for one area of the page).
func tabulaExpectations(dir string) (map[string][]tabExpect, []string) {
	out := map[string][]tabExpect{}
	var notes []string
	jsons, _ := filepath.Glob(filepath.Join(dir, "json", "*.json"))
	csvs, _ := filepath.Glob(filepath.Join(dir, "csv", "*.csv"))
	for _, f := range append(jsons, csvs...) {
		ext := filepath.Ext(f)
		name := strings.TrimSuffix(filepath.Base(f), ext)
		if why, ok := tabulaSkip[name]; ok {
			notes = append(notes, fmt.Sprintf("%s skipped: %s", filepath.Base(f), why))
			continue
		}
		if strings.HasPrefix(name, "eu-") || strings.HasPrefix(name, "us-") {
			notes = append(notes, fmt.Sprintf("%s skipped: ICDAR material", filepath.Base(f)))
			continue
		}
		p := filepath.Join(dir, name+".pdf")
		if _, err := os.Stat(p); err != nil {
			notes = append(notes, fmt.Sprintf("%s skipped: no %s.pdf", filepath.Base(f), name))
			continue
		}
		if ext == ".csv" && len(out[p]) > 0 {
			continue // the JSON expectation of this PDF is used
		}
		var es []tabExpect
		var err error
		if ext == ".json" {
			es, err = readTabJSON(f)
		} else {
			es, err = readTabCSV(f)
		}
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s skipped: %v", filepath.Base(f), err))
			continue
		}
		out[p] = append(out[p], es...)
	}
	return out, notes
}

func readTabJSON(f string) ([]tabExpect, error) {
	b, err := os.ReadFile(f)
	if err != nil {
		return nil, err
	}
	type jt struct {
		Method string  `json:"extraction_method"`
		Page   int     `json:"page_number"`
		Top    float64 `json:"top"`
		Left   float64 `json:"left"`
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
		Data   [][]struct {
			Text string `json:"text"`
		} `json:"data"`
	}
	// a file holds a list of tables, or one table when there is one
	var ts []jt
	if err := json.Unmarshal(b, &ts); err != nil {
		var one jt
		if err := json.Unmarshal(b, &one); err != nil {
			return nil, fmt.Errorf("parse: %w", err)
		}
		ts = []jt{one}
	}
	var out []tabExpect
	for _, t := range ts {
		e := tabExpect{source: "json/" + filepath.Base(f), page: t.Page, area: t.Method == "stream",
			bb: &document.BBox{X0: t.Left, Y0: t.Top, X1: t.Left + t.Width, Y1: t.Top + t.Height}}
		for _, r := range t.Data {
			row := make([]string, len(r))
			for j, c := range r {
				row[j] = c.Text
			}
			e.grid = append(e.grid, row)
		}
		out = append(out, e)
	}
	return out, nil
}

func readTabCSV(f string) ([]tabExpect, error) {
	fh, err := os.Open(f)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	r := csv.NewReader(fh)
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	rows, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	return []tabExpect{{source: "csv/" + filepath.Base(f), grid: rows}}, nil
}

// tabulaDoc scores one tabula PDF against its expectations: detection by
// IoU where the expectation has a box (precision over the detected tables
// of those pages), content against the detected table of the same page
// (any page for a CSV) with the best cell score, one to one.
func tabulaDoc(ex *pdf.Extractor, f string, es []tabExpect, t *tally, o opts) error {
	res, err := ex.Extract(context.Background(), f, document.Options{})
	if err != nil {
		return fmt.Errorf("%s: %w", f, err)
	}
	t.docs++
	dets := res.Tables
	grids := make([][][]string, len(dets))
	for i, d := range dets {
		grids[i] = rowsOf(d)
	}
	boxPages := map[int]bool{}
	for _, e := range es {
		if e.bb != nil {
			boxPages[e.page] = true
			t.detGT++
		}
	}
	for _, d := range dets {
		if boxPages[d.Page] && !outsideAreas(es, d) {
			t.detDet++
		}
	}
	det := greedy(len(es), len(dets), func(i, j int) float64 {
		if es[i].bb == nil || dets[j].Page != es[i].page {
			return 0
		}
		return iou(*es[i].bb, dets[j].BBox)
	}, 0.5)
	for _, d := range det {
		if d >= 0 {
			t.detTP++
		}
	}
	content := greedy(len(es), len(dets), func(i, j int) float64 {
		if es[i].page > 0 && dets[j].Page != es[i].page {
			return -1
		}
		return cellScore(es[i].grid, grids[j])
	}, 0.05)
	used := map[int]bool{}
	base := strings.TrimSuffix(filepath.Base(f), ".pdf")
	for i, e := range es {
		var g [][]string
		var d *document.Table
		if j := content[i]; j >= 0 {
			g = grids[j]
			d = &dets[j]
			used[j] = true
		}
		s := t.pair(gridCells(e.grid), d)
		if o.verbose {
			fmt.Printf("   %s %s p%d: cell %.3f (%dx%d vs expected %dx%d)\n", base, e.source, e.page, s, len(g), ncols(g), len(e.grid), ncols(e.grid))
		}
	}
	// A CSV expectation has no page: it is of the page of the detected
	// table it pairs with (a table running over several pages, its header
	// repeated, is expected on its first page only), and the tables on
	// the document's other pages are not scored; unpaired, every page is.
	pages := boxPages
	if len(boxPages) == 0 {
		pages = map[int]bool{}
		for i, e := range es {
			if j := content[i]; e.page == 0 && j >= 0 {
				pages[dets[j].Page] = true
			}
		}
	}
	for j := range grids {
		if !used[j] && (len(pages) == 0 || pages[dets[j].Page]) && !outsideAreas(es, dets[j]) {
			t.unmatched(dets[j])
		}
	}
	if o.verbose {
		fmt.Printf("%s: %d detected\n", base, len(dets))
	}
	if o.show == base {
		for _, e := range es {
			fmt.Printf("== expected %s p%d\n", e.source, e.page)
			for _, r := range e.grid {
				fmt.Printf("   %q\n", r)
			}
		}
		showDets(dets)
	}
	return nil
}

// outsideAreas: the page's expectations were made for chosen areas
// (stream mode) and the detected table lies outside all of them, so the
// expectations say nothing about it.
func outsideAreas(es []tabExpect, d document.Table) bool {
	any := false
	for _, e := range es {
		if e.page != d.Page || e.bb == nil {
			continue
		}
		if !e.area || overlapShare(d.BBox, *e.bb) > 0.2 {
			return false
		}
		any = true
	}
	return any
}

// tabulaReport says which of the sorted PDF paths are on the report
// side: families (base name without trailing digits) in sorted order
// alternate between tune and report, the first one tune.
func tabulaReport(paths []string) map[string]bool {
	fam := func(p string) string {
		return strings.TrimRight(strings.TrimSuffix(filepath.Base(p), ".pdf"), "0123456789")
	}
	var fams []string
	seen := map[string]bool{}
	for _, p := range paths {
		if f := fam(p); !seen[f] {
			seen[f] = true
			fams = append(fams, f)
		}
	}
	sort.Strings(fams)
	report := map[string]bool{}
	for i, f := range fams {
		report[f] = i%2 == 1
	}
	out := map[string]bool{}
	for _, p := range paths {
		out[p] = report[fam(p)]
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
