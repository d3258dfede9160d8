package pdf

import "github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"

// Fixture PDFs come from pdftest; these short names keep the tests terse.
type (
	txt = pdftest.Text
	pg  = pdftest.Page
)

var (
	makePDF  = pdftest.Make
	writePDF = pdftest.Write
	// column writes lines of body text as one paragraph starting at (x, y).
	column = pdftest.Column
)
