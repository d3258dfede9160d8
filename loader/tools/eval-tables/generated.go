package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/tablegen"
)

// genReport says whether a generated seed is in the report split (odd
// seeds); rules are adjusted looking at the even seeds only.
func genReport(seed uint64) bool { return seed%2 == 1 }

// generated scores the pages of seeds 1..n of the generated table
// benchmark (package tablegen) into a tune and a report tally, per
// layout too; out, when set, is a folder the PDFs are written to.
func generated(ex *pdf.Extractor, n int, o opts, out string) (tune, report tally, byLayout map[string]*[2]tally, err error) {
	byLayout = map[string]*[2]tally{}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		doc, err := tablegen.Generate(seed)
		if err != nil {
			return tune, report, nil, err
		}
		name := fmt.Sprintf("gen-%03d", seed)
		if out != "" {
			if err := os.WriteFile(filepath.Join(out, name+".pdf"), doc.PDF, 0o644); err != nil {
				return tune, report, nil, err
			}
		}
		res, err := ex.ExtractBytes(context.Background(), doc.PDF, name+".pdf", document.Options{})
		if err != nil {
			return tune, report, nil, fmt.Errorf("%s: %w", name, err)
		}
		gts := make([]gtTable, len(doc.Tables))
		for i, tb := range doc.Tables {
			gts[i] = gtTable{page: tb.Page, bb: tb.BBox}
			for _, c := range tb.Cells {
				gts[i].cells = append(gts[i].cells, cell{c.R0, c.C0, c.R1, c.C1, norm(c.Text)})
			}
		}
		split := 0
		t := &tune
		o := o
		if genReport(seed) {
			split, t, o = 1, &report, o.forSplit(true, name)
		}
		if byLayout[doc.Layout] == nil {
			byLayout[doc.Layout] = &[2]tally{}
		}
		for _, tt := range []*tally{t, &byLayout[doc.Layout][split]} {
			tt.docs++
			q := o
			q.verbose = o.verbose && tt == t
			match := scoreTables(gts, res.Tables, tt, q, name+" "+doc.Layout)
			tt.continued(gts, res.Tables, match)
			leaks(res, res.Tables, tt, opts{})
			if q.verbose {
				for gi, g := range gts {
					fmt.Printf("   %s gt %s %v -> %d\n", name, doc.Tables[gi].Style, fmtBox(g.bb), match[gi])
				}
			}
		}
		if o.show == name {
			for _, g := range gts {
				fmt.Printf("== truth p%d %s\n", g.page, fmtBox(g.bb))
				for _, r := range cellGrid(g.cells) {
					fmt.Printf("   %q\n", r)
				}
			}
			showDets(res.Tables)
		}
	}
	return tune, report, byLayout, nil
}
