// Command eval-tables scores docket's PDF table detection on the EU half
// of the ICDAR 2013 table competition (NAME.pdf with NAME-reg.xml and
// NAME-str.xml under -corpus/tables/icdar2013-eu). It prints three
// figures:
//
//   - table detection F1: per page, a detected table matches a ground
//     truth table when their boxes have IoU ≥ 0.5 (one-to-one, greedy);
//   - cell content: per ground-truth table, the row-major cell texts of the
//     matched table (header row included) against the truth, as an
//     edit-distance ratio, times min/max of the row counts and of the
//     column counts; unmatched truth tables score 0 (the mean over matched
//     tables only is printed too);
//   - ICDAR 2013 adjacency relations: every non-empty cell with its nearest
//     non-empty neighbour to the right and below, as (text, text,
//     direction) after whitespace normalization; micro precision, recall
//     and F1 over all truth tables.
//
// Coordinates in the XML are PDF points with a bottom-left origin and
// 1-based pages; docket's boxes have a top-left origin.
//
//	go run ./loader/tools/eval-tables -corpus ../shared/corpus [-v]
package main

import (
	"context"
	"encoding/xml"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/table"
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

type cell struct {
	r0, c0, r1, c1 int
	text           string
}

func main() {
	corpus := flag.String("corpus", filepath.Join("..", "shared", "corpus"), "corpus folder")
	verbose := flag.Bool("v", false, "print per-document figures")
	show := flag.String("show", "", "print the detected and truth tables of this document (e.g. eu-012)")
	flag.Parse()
	dir := filepath.Join(*corpus, "tables", "icdar2013-eu")
	pdfs, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if len(pdfs) == 0 {
		fmt.Println("corpus not found, skipped")
		return
	}
	sort.Strings(pdfs)
	ex := pdf.Extractor{Tables: table.New()}
	var tp, nDet, nGT int
	var cellSum, cellMatchedSum float64
	var cellMatched int
	var adjHit, adjDet, adjGT int
	var dupChars, tableChars int
	for _, f := range pdfs {
		name := strings.TrimSuffix(f, ".pdf")
		gts, err := readGT(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			continue
		}
		res, err := ex.Extract(context.Background(), f, document.Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, f, err)
			continue
		}
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
		nDet += len(dets)
		nGT += len(gts)
		match := matchTables(gts, dets)
		docTP := 0
		for gi, g := range gts {
			di := match[gi]
			gtGrid := g.grid()
			gRel := relations(cellsOf(g))
			adjGT += len(gRel)
			if di < 0 {
				continue
			}
			docTP++
			detGrid := rowsOf(dets[di])
			s := cellScore(gtGrid, detGrid)
			cellSum += s
			cellMatchedSum += s
			cellMatched++
			dRel := relations(gridCells(detGrid))
			adjDet += len(dRel)
			hit := 0
			for k := range dRel {
				if gRel[k] {
					hit++
				}
			}
			adjHit += hit
			if *verbose {
				fmt.Printf("   table p%d: cell %.3f  adjacency %d/%d/%d (%dx%d vs truth %dx%d)\n", g.page, s, hit, len(dRel), len(gRel),
					len(detGrid), ncols(detGrid), len(gtGrid), ncols(gtGrid))
			}
		}
		// detected tables that matched nothing still count in adjacency precision
		used := map[int]bool{}
		for _, di := range match {
			used[di] = true
		}
		for di, d := range dets {
			if !used[di] {
				adjDet += len(relations(gridCells(rowsOf(d))))
			}
		}
		tp += docTP
		// table text must not also appear as narrative text
		for _, el := range res.Elements {
			if el.Category == document.TableCat {
				tableChars += len(el.Text)
				continue
			}
			for _, d := range dets {
				if d.Page == el.Page && overlapShare(el.BBox, d.BBox) > 0.2 {
					dupChars += len(el.Text)
					if *verbose {
						fmt.Printf("   leak p%d %s %s %q\n", el.Page, el.Category, fmtBox(el.BBox), el.Text)
					}
				}
			}
		}
		if *show == filepath.Base(name) {
			for _, g := range gts {
				fmt.Printf("== truth p%d %s\n", g.page, fmtBox(g.bb))
				for _, r := range g.grid() {
					fmt.Printf("   %q\n", r)
				}
			}
			for _, d := range dets {
				fmt.Printf("== detected p%d %s\n", d.Page, fmtBox(d.BBox))
				for _, r := range rowsOf(d) {
					fmt.Printf("   %q\n", r)
				}
			}
		}
		if *verbose {
			fmt.Printf("%-8s gt %d det %d matched %d\n", filepath.Base(name), len(gts), len(dets), docTP)
			for gi, g := range gts {
				fmt.Printf("   gt p%d %v -> %d\n", g.page, fmtBox(g.bb), match[gi])
			}
			for di, d := range dets {
				fmt.Printf("   det%d p%d %v %dx%d\n", di, d.Page, fmtBox(d.BBox), len(rowsOf(d)), ncols(rowsOf(d)))
			}
		}
	}
	prec := ratio(tp, nDet)
	rec := ratio(tp, nGT)
	fmt.Printf("ICDAR 2013 EU: %d documents, %d truth tables, %d detected, %d matched (IoU >= 0.5)\n", len(pdfs), nGT, nDet, tp)
	fmt.Printf("table detection  P %.3f  R %.3f  F1 %.3f   (published ruling-line extractor: F1 0.78)\n", prec, rec, f1(prec, rec))
	fmt.Printf("cell content     %.3f over all truth tables (missed = 0); %.3f over the %d matched   (published: 0.79)\n",
		cellSum/math.Max(1, float64(nGT)), cellMatchedSum/math.Max(1, float64(cellMatched)), cellMatched)
	ap, ar := ratio(adjHit, adjDet), ratio(adjHit, adjGT)
	fmt.Printf("adjacency rel.   P %.3f  R %.3f  F1 %.3f\n", ap, ar, f1(ap, ar))
	fmt.Printf("non-table elements overlapping a table box by > 20%%: %d bytes of text (table elements: %d bytes)\n", dupChars, tableChars)
}

func fmtBox(b document.BBox) string {
	return fmt.Sprintf("[%.0f %.0f %.0f %.0f]", b.X0, b.Y0, b.X1, b.Y1)
}

// overlapShare is the share of a's area inside b.
func overlapShare(a, b document.BBox) float64 {
	w := math.Min(a.X1, b.X1) - math.Max(a.X0, b.X0)
	h := math.Min(a.Y1, b.Y1) - math.Max(a.Y0, b.Y0)
	area := (a.X1 - a.X0) * (a.Y1 - a.Y0)
	if w <= 0 || h <= 0 || area <= 0 {
		return 0
	}
	return w * h / area
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func f1(p, r float64) float64 {
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
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

func norm(s string) string { return strings.Join(strings.Fields(s), " ") }

func iou(a, b document.BBox) float64 {
	w := math.Min(a.X1, b.X1) - math.Max(a.X0, b.X0)
	h := math.Min(a.Y1, b.Y1) - math.Max(a.Y0, b.Y0)
	if w <= 0 || h <= 0 {
		return 0
	}
	in := w * h
	ua := (a.X1-a.X0)*(a.Y1-a.Y0) + (b.X1-b.X0)*(b.Y1-b.Y0) - in
	return in / ua
}

// matchTables pairs truth and detected tables on the same page, best IoU
// first, one to one; result[g] is the detected index or -1.
func matchTables(gts []gtTable, dets []document.Table) []int {
	type pair struct {
		g, d int
		v    float64
	}
	var ps []pair
	for gi, g := range gts {
		for di, d := range dets {
			if d.Page == g.page {
				if v := iou(g.bb, d.BBox); v >= 0.5 {
					ps = append(ps, pair{gi, di, v})
				}
			}
		}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].v > ps[j].v })
	out := make([]int, len(gts))
	for i := range out {
		out[i] = -1
	}
	usedD := map[int]bool{}
	for _, p := range ps {
		if out[p.g] < 0 && !usedD[p.d] {
			out[p.g] = p.d
			usedD[p.d] = true
		}
	}
	return out
}

// grid is the truth table as rows of text, spanning cells at their
// top-left position.
func (g gtTable) grid() [][]string {
	nr, nc := 0, 0
	for _, c := range g.cells {
		nr = max(nr, c.r1+1)
		nc = max(nc, c.c1+1)
	}
	rows := make([][]string, nr)
	for i := range rows {
		rows[i] = make([]string, nc)
	}
	for _, c := range g.cells {
		rows[c.r0][c.c0] = c.text
	}
	return rows
}

func cellsOf(g gtTable) []cell { return g.cells }

func rowsOf(t document.Table) [][]string {
	var rows [][]string
	if len(t.Header) > 0 {
		rows = append(rows, t.Header)
	}
	return append(rows, t.Rows...)
}

func ncols(rows [][]string) int {
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
	}
	return n
}

func gridCells(rows [][]string) []cell {
	var out []cell
	for i, r := range rows {
		for j, c := range r {
			out = append(out, cell{i, j, i, j, norm(c)})
		}
	}
	return out
}

// cellScore compares row-major cell texts by edit-distance ratio, times
// the row and column count agreement.
func cellScore(gt, det [][]string) float64 {
	flat := func(rows [][]string) []rune {
		var parts []string
		for _, r := range rows {
			for _, c := range r {
				if c = norm(c); c != "" {
					parts = append(parts, c)
				}
			}
		}
		return []rune(strings.Join(parts, "|"))
	}
	a, b := flat(gt), flat(det)
	n := max(len(a), len(b))
	if n == 0 {
		return 1
	}
	sim := 1 - float64(levenshtein(a, b))/float64(n)
	rr := countRatio(len(gt), len(det))
	cr := countRatio(ncols(gt), ncols(det))
	return sim * rr * cr
}

func countRatio(a, b int) float64 {
	if a == 0 && b == 0 {
		return 1
	}
	return float64(min(a, b)) / float64(max(a, b))
}

func levenshtein(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// relations: each non-empty cell with its nearest non-empty neighbour to
// the right (over every row it spans) and below (over every column).
func relations(cells []cell) map[string]bool {
	nr, nc := 0, 0
	for _, c := range cells {
		nr = max(nr, c.r1+1)
		nc = max(nc, c.c1+1)
	}
	at := make([][]int, nr)
	for i := range at {
		at[i] = make([]int, nc)
		for j := range at[i] {
			at[i][j] = -1
		}
	}
	for k, c := range cells {
		if c.text == "" {
			continue
		}
		for i := c.r0; i <= c.r1 && i < nr; i++ {
			for j := c.c0; j <= c.c1 && j < nc; j++ {
				at[i][j] = k
			}
		}
	}
	out := map[string]bool{}
	for k, c := range cells {
		if c.text == "" {
			continue
		}
		for i := c.r0; i <= c.r1; i++ {
			for j := c.c1 + 1; j < nc; j++ {
				if o := at[i][j]; o >= 0 && o != k {
					out[c.text+"\x00"+cells[o].text+"\x00R"] = true
					break
				}
			}
		}
		for j := c.c0; j <= c.c1; j++ {
			for i := c.r1 + 1; i < nr; i++ {
				if o := at[i][j]; o >= 0 && o != k {
					out[c.text+"\x00"+cells[o].text+"\x00D"] = true
					break
				}
			}
		}
	}
	return out
}
