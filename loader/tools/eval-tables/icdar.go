package main

import (
	"context"
	"crypto/sha256"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

type xBox struct {
	X1 float64 `xml:"x1,attr"`
	Y1 float64 `xml:"y1,attr"`
	X2 float64 `xml:"x2,attr"`
	Y2 float64 `xml:"y2,attr"`
}

type xCell struct {
	StartRow int    `xml:"start-row,attr"`
	StartCol int    `xml:"start-col,attr"`
	EndRow   *int   `xml:"end-row,attr"`
	EndCol   *int   `xml:"end-col,attr"`
	Content  string `xml:"content"`
	Box      xBox   `xml:"bounding-box"`
}

type xRegion struct {
	Page  int     `xml:"page,attr"`
	Box   xBox    `xml:"bounding-box"`
	Cells []xCell `xml:"cell"`
}

type xDoc struct {
	Tables []struct {
		Regions []xRegion `xml:"region"`
	} `xml:"table"`
}

// gtTable is one ground-truth table region on one page.
type gtTable struct {
	page  int
	bb    document.BBox // top-left origin
	cells []cell
}

// reportSplit says whether an ICDAR document (base name, e.g. "eu-012")
// is in the report split: the first byte of sha256(name) is odd. The
// split is fixed by the names alone, so it cannot drift with the results;
// it puts 10 of the 27 documents (38 of 76 tables) in the report split.
func reportSplit(name string) bool {
	h := sha256.Sum256([]byte(name))
	return h[0]%2 == 1
}

// icdarDoc scores one ICDAR document into t.
func icdarDoc(ex *pdf.Extractor, f string, t *tally, o opts) error {
	name := strings.TrimSuffix(f, ".pdf")
	base := filepath.Base(name)
	gts, err := readGT(name)
	if err != nil {
		return err
	}
	res, err := ex.Extract(context.Background(), f, document.Options{})
	if err != nil {
		return fmt.Errorf("%s: %w", f, err)
	}
	t.docs++
	heights := map[int]float64{}
	for _, p := range res.Pages {
		heights[p.Number] = p.Height
	}
	for i := range gts {
		h := heights[gts[i].page]
		b := gts[i].bb
		gts[i].bb = document.BBox{X0: b.X0, Y0: h - b.Y1, X1: b.X1, Y1: h - b.Y0}
	}
	dets := res.Tables
	match := scoreTables(gts, dets, t, o, base)
	leaks(res, dets, t, o)
	if o.show == base {
		for _, g := range gts {
			fmt.Printf("== truth p%d %s\n", g.page, fmtBox(g.bb))
			for _, r := range cellGrid(g.cells) {
				fmt.Printf("   %q\n", r)
			}
		}
		showDets(dets)
	}
	if o.verbose {
		fmt.Printf("%-8s gt %d det %d\n", base, len(gts), len(dets))
		for gi, g := range gts {
			fmt.Printf("   gt p%d %v -> %d\n", g.page, fmtBox(g.bb), match[gi])
		}
		for di, d := range dets {
			fmt.Printf("   det%d p%d %v %dx%d\n", di, d.Page, fmtBox(d.BBox), len(rowsOf(d)), ncols(rowsOf(d)))
		}
	}
	return nil
}

func showDets(dets []document.Table) {
	for _, d := range dets {
		fmt.Printf("== detected p%d %s\n", d.Page, fmtBox(d.BBox))
		for _, r := range rowsOf(d) {
			fmt.Printf("   %q\n", r)
		}
	}
}

func readGT(name string) ([]gtTable, error) {
	var reg, str xDoc
	for _, x := range []struct {
		suffix string
		into   *xDoc
	}{{"-reg.xml", &reg}, {"-str.xml", &str}} {
		b, err := os.ReadFile(name + x.suffix)
		if err != nil {
			return nil, fmt.Errorf("read ground truth: %w", err)
		}
		if err := xml.Unmarshal(b, x.into); err != nil {
			return nil, fmt.Errorf("parse %s%s: %w", name, x.suffix, err)
		}
	}
	var out []gtTable
	for ti, t := range reg.Tables {
		for ri, r := range t.Regions {
			g := gtTable{page: r.Page, bb: document.BBox{X0: r.Box.X1, Y0: r.Box.Y1, X1: r.Box.X2, Y1: r.Box.Y2}}
			if ti < len(str.Tables) && ri < len(str.Tables[ti].Regions) {
				for _, c := range str.Tables[ti].Regions[ri].Cells {
					e := cell{r0: c.StartRow, c0: c.StartCol, r1: c.StartRow, c1: c.StartCol, text: norm(c.Content)}
					if c.EndRow != nil {
						e.r1 = *c.EndRow
					}
					if c.EndCol != nil {
						e.c1 = *c.EndCol
					}
					g.cells = append(g.cells, e)
				}
			}
			out = append(out, g)
		}
	}
	return out, nil
}

// scoreTables matches the truth tables with the detected ones (IoU >= 0.5
// on the same page, greedy) and scores each pair into t; result[i] is the
// detected table of truth i or -1.
func scoreTables(gts []gtTable, dets []document.Table, t *tally, o opts, base string) []int {
	t.detDet += len(dets)
	t.detGT += len(gts)
	match := greedy(len(gts), len(dets), func(i, j int) float64 {
		if dets[j].Page != gts[i].page {
			return 0
		}
		return iou(gts[i].bb, dets[j].BBox)
	}, 0.5)
	used := map[int]bool{}
	for gi, g := range gts {
		di := match[gi]
		if di < 0 {
			t.pair(g.cells, nil)
			if o.verbose {
				c := classify(g, nil, 0, gts, dets)
				t.class(c, 1)
				fmt.Printf("   %s truth p%d %s: %s\n", base, g.page, fmtBox(g.bb), c)
			}
			continue
		}
		used[di] = true
		t.detTP++
		det := rowsOf(dets[di])
		s := t.pair(g.cells, &dets[di])
		if o.verbose {
			gg := cellGrid(g.cells)
			c := classify(g, &dets[di], s, gts, dets)
			t.class(c, 1-s)
			fmt.Printf("   %s table p%d: cell %.3f (%dx%d vs truth %dx%d) %s\n", base, g.page, s, len(det), ncols(det), len(gg), ncols(gg), c)
			if rl := rowCauses(g.cells, det); len(rl) > 0 {
				t.rowLosses.add(rl, 1-s)
				var ws []string
				for _, l := range rl {
					ws = append(ws, l.cause+" ("+l.edge+")")
				}
				fmt.Printf("     rows: %s\n", strings.Join(ws, "; "))
			}
		}
	}
	for di, d := range dets {
		if !used[di] {
			t.unmatched(d)
			if o.verbose {
				fmt.Printf("   %s detected p%d %s matches no truth table\n", base, d.Page, fmtBox(d.BBox))
			}
		}
	}
	return match
}

// leaks counts the text of non-table elements that overlaps a detected
// table: table text must not also appear as narrative text.
func leaks(res *document.Result, dets []document.Table, t *tally, o opts) {
	for _, el := range res.Elements {
		if el.Category == document.TableCat {
			t.tableChars += len(el.Text)
			continue
		}
		for _, d := range dets {
			if d.Page == el.Page && overlapShare(el.BBox, d.BBox) > 0.2 {
				t.dupChars += len(el.Text)
				if o.verbose {
					fmt.Printf("   leak p%d %s %s %q\n", el.Page, el.Category, fmtBox(el.BBox), el.Text)
				}
			}
		}
	}
}
