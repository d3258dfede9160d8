package extract

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/worker"
)

// TestODSIsExtracted: an ODS is routed and lands a page per sheet, each
// sheet's table with its name as Section. Before, Route said "no
// extractor for type ods" and the spreadsheet was quarantined.
func TestODSIsExtracted(t *testing.T) {
	ns := `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"`
	sheet := func(name, a, b string) string {
		return `<table:table table:name="` + name + `"><table:table-row><table:table-cell office:value-type="string"><text:p>` + a +
			`</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>` + b + `</text:p></table:table-cell></table:table-row></table:table>`
	}
	content := `<office:document-content ` + ns + `><office:body><office:spreadsheet>` + sheet("Budget", "Rent", "1200") + sheet("Staff", "Ana", "Clerk") +
		`</office:spreadsheet></office:body></office:document-content>`
	p := filepath.Join(t.TempDir(), "book.ods")
	if err := os.WriteFile(p, zipOf(t, "mimetype", "application/vnd.oasis.opendocument.spreadsheet", "content.xml", content), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := detect.Detect(p)
	if err != nil || info.Type != detect.ODS {
		t.Fatalf("detected %+v, %v", info, err)
	}
	res, err := Route(context.Background(), worker.Request{Path: p, Name: "book.ods", Type: info.Type, MIME: info.MIME})
	if err != nil {
		t.Fatal(err)
	}
	checkElements(t, res)
	if res.Type != detect.ODS || len(res.Pages) != 2 || len(res.Tables) != 2 {
		t.Fatalf("type %q, %d pages, %d tables", res.Type, len(res.Pages), len(res.Tables))
	}
	for i, want := range []string{"Rent\t1200", "Ana\tClerk"} {
		if res.Pages[i].Text != want || res.Elements[i].Section != []string{"Budget", "Staff"}[i] {
			t.Errorf("sheet %d: %q, Section %q", i+1, res.Pages[i].Text, res.Elements[i].Section)
		}
	}
}
