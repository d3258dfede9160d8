package main

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

// The pdflabels set (since session 29): the corpus's real PDFs (pdf/),
// one or two pages of each, with the tables on them labelled by hand
// (pdflabels.tsv: how the pages were picked, what counts as a table, how
// the boxes were read). No cells: a table-presence set, scored as
// detection P/R/F1 (IoU >= 0.5, as the other sets) and per page (a page
// with a table found to have one; a page without one found to have none).
// Split by file name like ICDAR EU (reportSplit), except the documents a
// detector rule was fitted on (pdfLabelsSeen): those are in the tune half
// whatever their hash, so that the report half holds only pages no rule
// was made on (review32).
//
//go:embed pdflabels.tsv
var pdfLabelsTSV string

// pdfLabelsSeen are the labelled documents earlier sessions fitted
// detector rules to, looking at their tables (dump-pdf), and why: from the
// notes of sessions 28-29 and the table package's comments.
var pdfLabelsSeen = map[string]string{
	"issue-53-example":                       "pdf/51 (5298b8f) was made on its pp. 1, 3, 4",
	"issue-33-lorem-ipsum":                   "pdf/51 (5298b8f): its p. 2",
	"issue-67-example":                       "pdf/54 (f10ae21) was made on it",
	"issue-336-example":                      "pdf/54 (f10ae21)",
	"issue-192-example":                      "pdf/52 (cc95195) was checked on it",
	"issue-912":                              "session 29's clip tracking (pdf/55) was made on it",
	"WARN-Report-for-7-1-2015-to-03-25-2016": "sessions 28-29 studied its cells (clipped text)",
	"pr-138-example":                         "session 28's runsOn narrowing was checked on its header",
	"issue-71-duplicate-chars":               "a one-row rule's test names it (onerow_test.go)",
}

// pdfLabelsReport says whether a labelled document is in the report half.
func pdfLabelsReport(file string) bool {
	_, seen := pdfLabelsSeen[file]
	return !seen && reportSplit(file)
}

// labelPage is one labelled page: its tables' boxes (none: a page without
// a table).
type labelPage struct {
	file  string
	page  int
	boxes []document.BBox
}

// parseLabels reads the label file: comment lines (#) and SKIP pages left
// out; a malformed line is an error naming its line.
func parseLabels(s string) ([]labelPage, error) {
	var out []labelPage
	for i, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 3 {
			return nil, fmt.Errorf("pdflabels.tsv:%d: %d fields, want file, page, boxes, note", i+1, len(f))
		}
		if f[2] == "SKIP" {
			continue
		}
		pg, err := strconv.Atoi(f[1])
		if err != nil || pg < 1 {
			return nil, fmt.Errorf("pdflabels.tsv:%d: page %q", i+1, f[1])
		}
		lp := labelPage{file: f[0], page: pg}
		if f[2] != "-" {
			for _, b := range strings.Split(f[2], ";") {
				var v [4]float64
				xs := strings.Split(b, ",")
				if len(xs) != 4 {
					return nil, fmt.Errorf("pdflabels.tsv:%d: box %q, want x0,y0,x1,y1", i+1, b)
				}
				for k, x := range xs {
					if v[k], err = strconv.ParseFloat(x, 64); err != nil {
						return nil, fmt.Errorf("pdflabels.tsv:%d: box %q: %v", i+1, b, err)
					}
				}
				if v[2] <= v[0] || v[3] <= v[1] {
					return nil, fmt.Errorf("pdflabels.tsv:%d: box %q is empty", i+1, b)
				}
				lp.boxes = append(lp.boxes, document.BBox{X0: v[0], Y0: v[1], X1: v[2], Y1: v[3]})
			}
		}
		out = append(out, lp)
	}
	return out, nil
}

// presence adds up the pdflabels figures.
type presence struct {
	docs, pages                  int
	gt, det, tp                  int // tables: labelled, detected, matched at IoU >= 0.5
	withTable, withTableFound    int // pages with a labelled table; of those, pages with a detection
	withoutTable, withoutTableFP int // pages without one; of those, pages with a detection
}

// scorePage scores one labelled page against the tables detected on it;
// it returns the detected tables that matched no label.
func (p *presence) scorePage(lp labelPage, dets []document.Table) []document.Table {
	p.pages++
	p.gt += len(lp.boxes)
	p.det += len(dets)
	m := greedy(len(lp.boxes), len(dets), func(i, j int) float64 { return iou(lp.boxes[i], dets[j].BBox) }, 0.5)
	used := map[int]bool{}
	for _, j := range m {
		if j >= 0 {
			p.tp++
			used[j] = true
		}
	}
	if len(lp.boxes) > 0 {
		p.withTable++
		if len(dets) > 0 {
			p.withTableFound++
		}
	} else {
		p.withoutTable++
		if len(dets) > 0 {
			p.withoutTableFP++
		}
	}
	var extra []document.Table
	for j, d := range dets {
		if !used[j] {
			extra = append(extra, d)
		}
	}
	return extra
}

func (p presence) print(name, status string) {
	fmt.Printf("%s  [%s]\n", name, status)
	pr, r := ratio(p.tp, p.det), ratio(p.tp, p.gt)
	fmt.Printf("  table detection  P %.3f  R %.3f  F1 %.3f   (%d labelled tables, %d detected, %d matched at IoU >= 0.5)\n",
		pr, r, f1(pr, r), p.gt, p.det, p.tp)
	fmt.Printf("  pages            %d of %d with a table have a detection; %d of %d without one have a detection\n",
		p.withTableFound, p.withTable, p.withoutTableFP, p.withoutTable)
}

// printPdfLabels scores the set's two splits, or prints a skip line.
func printPdfLabels(ex *pdf.Extractor, corpus string, o opts) {
	labels, err := parseLabels(pdfLabelsTSV)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	dir := filepath.Join(corpus, "pdf")
	if _, err := os.Stat(dir); err != nil {
		fmt.Println("pdflabels: corpus/pdf not found, skipped")
		return
	}
	byFile := map[string][]labelPage{}
	for _, lp := range labels {
		byFile[lp.file] = append(byFile[lp.file], lp)
	}
	var tune, report presence
	for _, f := range sortedKeys(byFile) {
		t, q := &tune, o
		if pdfLabelsReport(f) {
			t, q = &report, o.forSplit(true, f)
		}
		res, err := ex.Extract(context.Background(), filepath.Join(dir, f+".pdf"), document.Options{})
		if err != nil {
			fmt.Fprintf(os.Stderr, "pdflabels %s: %v\n", f, err)
			continue
		}
		t.docs++
		for _, lp := range byFile[f] {
			var dets []document.Table
			for _, d := range res.Tables {
				if d.Page == lp.page {
					dets = append(dets, d)
				}
			}
			before := t.tp
			extra := t.scorePage(lp, dets)
			if q.verbose {
				fmt.Printf("   %s p%d: %d labelled, %d detected, %d matched\n", f, lp.page, len(lp.boxes), len(dets), t.tp-before)
				for _, d := range extra {
					fmt.Printf("     detected %s matches no label\n", fmtBox(d.BBox))
				}
			}
		}
	}
	tune.print(fmt.Sprintf("pdflabels/tune: %d pages of %d documents (corpus/pdf, tables labelled by hand; no cells: detection only; the %d documents rules were fitted on are here whatever their hash)",
		tune.pages, tune.docs, len(pdfLabelsSeen)), "TUNED ON since session 29")
	report.print(fmt.Sprintf("pdflabels/report: %d pages of %d documents (no detector rule was fitted on them)", report.pages, report.docs), "report split: not looked at when changing rules")
}
