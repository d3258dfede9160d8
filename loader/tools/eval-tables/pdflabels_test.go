package main

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestParseLabels: the repository's label file parses (every page a
// file, a page and boxes that are not empty); SKIP lines and comments are
// left out; a bad box names its line.
func TestParseLabels(t *testing.T) {
	ls, err := parseLabels(pdfLabelsTSV)
	if err != nil {
		t.Fatal(err)
	}
	tables := 0
	for _, l := range ls {
		tables += len(l.boxes)
	}
	if len(ls) < 40 || tables < 20 {
		t.Errorf("%d pages, %d tables: the label file lost lines", len(ls), tables)
	}
	ls, err = parseLabels("# c\na\t1\t-\tnone\nb\t2\tSKIP\twhy\nc\t3\t1,2,30,40;5,50,60,90\ttwo\n")
	if err != nil || len(ls) != 2 || len(ls[1].boxes) != 2 || ls[1].boxes[1] != (document.BBox{X0: 5, Y0: 50, X1: 60, Y1: 90}) {
		t.Errorf("parsed %+v, %v", ls, err)
	}
	if _, err := parseLabels("# c\na\t1\t30,2,1,40\tempty box\n"); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Errorf("an empty box on line 2: error %v", err)
	}
}

// TestPresenceScore: a label matched at IoU >= 0.5 is a hit, a detection
// of another place is extra, a page without labels with a detection
// counts against precision and as a table-free page with a detection.
func TestPresenceScore(t *testing.T) {
	var p presence
	box := document.BBox{X0: 100, Y0: 100, X1: 300, Y1: 200}
	near := document.BBox{X0: 110, Y0: 105, X1: 310, Y1: 210}
	far := document.BBox{X0: 100, Y0: 400, X1: 300, Y1: 500}
	extra := p.scorePage(labelPage{file: "a", page: 1, boxes: []document.BBox{box}},
		[]document.Table{{BBox: far}, {BBox: near}})
	if len(extra) != 1 || extra[0].BBox != far {
		t.Errorf("extra %v, want the far table", extra)
	}
	p.scorePage(labelPage{file: "a", page: 2}, []document.Table{{BBox: box}})
	p.scorePage(labelPage{file: "b", page: 1, boxes: []document.BBox{box}}, nil)
	want := presence{pages: 3, gt: 2, det: 3, tp: 1, withTable: 2, withTableFound: 1, withoutTable: 1, withoutTableFP: 1}
	if p != want {
		t.Errorf("got %+v\nwant %+v", p, want)
	}
}

// TestSeenDocumentsAreTuned: a document a rule was fitted on is never in
// the report half, even when its name's hash would put it there; every
// seen name is a labelled document.
func TestSeenDocumentsAreTuned(t *testing.T) {
	ls, err := parseLabels(pdfLabelsTSV)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, l := range ls {
		files[l.file] = true
	}
	hashReport := 0
	for f := range pdfLabelsSeen {
		if !files[f] {
			t.Errorf("seen %s is no labelled document", f)
		}
		if reportSplit(f) {
			hashReport++
		}
		if pdfLabelsReport(f) {
			t.Errorf("%s (%s) is in the report half", f, pdfLabelsSeen[f])
		}
	}
	if hashReport == 0 {
		t.Error("no seen document's hash is in the report half: the test checks nothing")
	}
}
