package main

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/tools/internal/browser"
)

// The truth grid follows HTML's spans: a cell spanning two rows takes
// its column in the row under it, a group head spans columns.
func TestBrowserTruthSpans(t *testing.T) {
	c := func(s string, rs, cs int) brCell { return brCell{lines: strings.Fields(s), rs: rs, cs: cs} }
	tb := brTable{rows: [][]brCell{
		{c("Name", 2, 1), c("Group head", 1, 2), c("Note", 2, 1)},
		{c("a", 1, 1), c("b", 1, 1)},
		{c("x", 2, 1), c("1", 1, 1), c("", 1, 1), c("long text", 1, 1)},
		{c("2", 1, 1), c("3", 1, 1), c("4", 1, 1)},
	}}
	want := []cell{
		{0, 0, 1, 0, "Name"}, {0, 1, 0, 2, "Group head"}, {0, 3, 1, 3, "Note"},
		{1, 1, 1, 1, "a"}, {1, 2, 1, 2, "b"},
		{2, 0, 3, 0, "x"}, {2, 1, 2, 1, "1"}, {2, 3, 2, 3, "long text"},
		{3, 1, 3, 1, "2"}, {3, 2, 3, 2, "3"}, {3, 3, 3, 3, "4"},
	}
	if got := tb.truth(); !reflect.DeepEqual(got, want) {
		t.Errorf("truth:\n got %v\nwant %v", got, want)
	}
}

// Every generated table's rows cover the same number of grid columns
// (a row short of a cell would be a ragged truth), for many seeds.
func TestBrowserTablesRectangular(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		for ti, tb := range browserPage(seed).tables {
			width := map[int]int{}
			for _, c := range tb.truth() {
				for r := c.r0; r <= c.r1; r++ {
					width[r] += c.c1 - c.c0 + 1
				}
			}
			// empty cells are not truth cells: count them from the rows
			for r, row := range tb.rows {
				for _, bc := range row {
					if norm(strings.Join(bc.lines, " ")) == "" {
						width[r] += bc.cs
					}
				}
			}
			for r := range tb.rows {
				if width[r] != width[0] {
					t.Fatalf("seed %d table %d: row %d covers %d columns, row 0 %d", seed, ti, r, width[r], width[0])
				}
			}
		}
	}
}

// The truth boxes are where Chromium printed the tables: every word of
// every truth cell is a word pdftotext finds inside its table's box on
// its page (so the layout read back is the printed one).
func TestBrowserBoxesHoldTheirWords(t *testing.T) {
	if _, err := browser.Find(); err != nil {
		t.Skip(err)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (make setup installs poppler-utils)")
	}
	pages := []brPage{browserPage(1), browserPage(2), browserPage(3), browserPage(4)}
	dir := t.TempDir()
	b, lay, err := renderBrowser(pages, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 {
		t.Fatal("empty PDF")
	}
	out, err := exec.Command("pdftotext", "-bbox", dir+"/tables.pdf", "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	type word struct {
		X0 float64 `xml:"xMin,attr"`
		Y0 float64 `xml:"yMin,attr"`
		X1 float64 `xml:"xMax,attr"`
		Y1 float64 `xml:"yMax,attr"`
		T  string  `xml:",chardata"`
	}
	var doc struct {
		Pages []struct {
			Words []word `xml:"word"`
		} `xml:"body>doc>page"`
	}
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	gts, scored := browserTruth(pages, lay)
	if len(scored) != len(pages) || len(gts) == 0 {
		t.Fatalf("%d of %d pages scored, %d truth tables", len(scored), len(pages), len(gts))
	}
	for _, g := range gts {
		inside := map[string]int{}
		for _, w := range doc.Pages[g.page-1].Words {
			cx, cy := (w.X0+w.X1)/2, (w.Y0+w.Y1)/2
			if cx > g.bb.X0 && cx < g.bb.X1 && cy > g.bb.Y0 && cy < g.bb.Y1 {
				inside[w.T]++
			}
		}
		n := 0
		for _, c := range g.cells {
			for _, w := range strings.Fields(c.text) {
				if inside[w] == 0 {
					t.Errorf("page %d box %v: cell word %q not inside it", g.page, g.bb, w)
				}
				inside[w]--
				n++
			}
		}
		if n == 0 {
			t.Errorf("page %d: a truth table without words", g.page)
		}
	}
}

// Only a machine without Chromium skips the browser set: a Chromium that
// is there but fails to print is an error, not a skip (eval-rtl's browser
// set already returned it), so a broken install does not read as "held
// out set skipped" in make eval's output.
func TestBrowserPrintFailureIsAnError(t *testing.T) {
	bin := t.TempDir()
	t.Setenv("PATH", bin)
	if err := printBrowser(nil, 2, ""); err != nil {
		t.Errorf("no chromium: %v, want the set skipped", err)
	}
	if err := os.WriteFile(filepath.Join(bin, "chromium"), []byte("#!/bin/sh\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := printBrowser(nil, 2, ""); err == nil {
		t.Error("a chromium that fails to print: no error, want one")
	}
}
