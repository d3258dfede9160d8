package main

import (
	"reflect"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestPdfDataJoin: a later table's first row repeating the first table's
// head is left out (the expectations leave repeated page heads out); other
// rows are kept in page order.
func TestPdfDataJoin(t *testing.T) {
	a := document.Table{Page: 1, Header: []string{"County", "Total"}, Rows: [][]string{{"Adair", "5434"}}}
	b := document.Table{Page: 2, Header: []string{"County", " Total"}, Rows: [][]string{{"Adams", "2808"}}}
	c := document.Table{Page: 3, Rows: [][]string{{"Boone", "1"}}}
	got := pdfDataJoin([]document.Table{a, b, c}).Rows
	want := [][]string{{"County", "Total"}, {"Adair", "5434"}, {"Adams", "2808"}, {"Boone", "1"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("joined %q, want %q", got, want)
	}
}

// TestPdfDataOwn: a table is the expected one's when at least half of its
// non-empty cells are expected cells.
func TestPdfDataOwn(t *testing.T) {
	want := map[string]bool{"Adair": true, "5434": true, "County": true}
	own := document.Table{Rows: [][]string{{"Adair", " 5434 "}, {"Note", ""}}}
	other := document.Table{Rows: [][]string{{"Adair", "x"}, {"y", "z"}}}
	if !pdfDataOwn(own, want) {
		t.Error("a table of 2 expected cells in 3 is not taken")
	}
	if pdfDataOwn(other, want) {
		t.Error("a table of 1 expected cell in 4 is taken")
	}
}
