package table

import (
	"fmt"

	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// Fixture PDFs come from pdftest (Helvetica and Helvetica-Bold text and
// raw drawing operators on a 612x792 page; y is from the top); these short
// names keep the tests terse.
type (
	txt  = pdftest.Text
	page = pdftest.Page
)

var (
	writePDF = pdftest.Write
	// prose is a paragraph of body text lines starting at (x, y).
	prose = pdftest.Column
)

// hline and vline draw 0.5pt rules with top-left coordinates.
func hline(x0, x1, y float64) string {
	return fmt.Sprintf("0.5 w %g %g m %g %g l S", x0, 792-y, x1, 792-y)
}

func vline(x, y0, y1 float64) string {
	return fmt.Sprintf("0.5 w %g %g m %g %g l S", x, 792-y0, x, 792-y1)
}

// fillRule is a rule drawn as a thin filled rectangle (as word processors do).
func fillRule(x0, y, x1 float64) string {
	return fmt.Sprintf("%g %g %g 0.6 re f", x0, 792-y-0.3, x1-x0)
}
