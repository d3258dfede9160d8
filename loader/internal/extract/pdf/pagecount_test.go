package pdf

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// twoPagePDF is a plain two-page PDF ("First page text here.", "Second
// page text here."), the file the damage tests break.
func twoPagePDF() []byte {
	return makePDF([]pg{{Items: column(72, 72, "First page text here.")}, {Items: column(72, 72, "Second page text here.")}})
}

// No page lost silently: damaged two-page files land what MuPDF can read,
// and the document or the lost page is flagged for review with the reason.
func TestDamagedPagesFlagged(t *testing.T) {
	two := twoPagePDF()
	if !bytes.Contains(two, []byte("/Kids [7 0 R 9 0 R] /Count 2")) {
		t.Fatal("fixture layout changed; update the test's object numbers")
	}
	// Every cross-reference entry points at the wrong offset: MuPDF
	// must repair the file by scanning it.
	xrefRe := regexp.MustCompile(`(?m)^\d{10} 00000 n `)
	breakXref := func(b []byte) []byte { return xrefRe.ReplaceAll(b, []byte("0000000009 00000 n ")) }
	// page 2's object in the middle of the file, not its last object
	stream := func(s string) string { return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(s), s) }
	page := func(contents int) string {
		return fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 7 0 R >> >> /Contents %d 0 R >>", contents)
	}
	midPage := pdftest.Assemble("1.4", []string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>",
		page(4), stream("BT /F1 12 Tf 72 700 Td (First page text here.) Tj ET"), page(6), stream("BT /F1 12 Tf 72 700 Td (Second page text here.) Tj ET"),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"}, "")
	shiftXref := func(b []byte, by int) []byte {
		return xrefRe.ReplaceAllFunc(b, func(e []byte) []byte {
			var off int
			fmt.Sscanf(string(e), "%d", &off)
			return fmt.Appendf(nil, "%010d 00000 n ", off+by)
		})
	}
	cases := []struct {
		name      string
		data      []byte
		pages     int    // pages landed
		declared  int    // Metadata.PageCount
		review    string // "page:code"
		reviewMsg string
	}{
		{"broken xref, page tree of one repaired into one page", breakXref(bytes.Replace(two, []byte("/Kids [7 0 R 9 0 R] /Count 2"), []byte("/Kids [7 0 R] /Count 1      "), 1)),
			1, 2, "0:pages_missing,0:repaired", "declares 2 pages (page tree count 1, 2 page objects) but only 1 could be read"},
		{"page tree count under its kids", bytes.Replace(two, []byte("/Count 2"), []byte("/Count 1"), 1),
			1, 2, "0:pages_missing,0:repaired", "declares 2 pages"},
		{"truncated after page 1", two[:bytes.Index(two, []byte("8 0 obj"))],
			2, 2, "2:page_unreadable,0:repaired", "page 2 could not be read and is landed empty (MuPDF: format error: object out of range (9 0 R)"},
		{"broken xref, page 2 object damaged", breakXref(bytes.Replace(two, []byte("9 0 obj"), []byte("9 0 ojb"), 1)),
			2, 2, "2:page_unreadable,0:repaired", "page 2 could not be read"},
		{"page tree lists one of two", bytes.Replace(two, []byte("/Kids [7 0 R 9 0 R]"), []byte("/Kids [7 0 R]      "), 1),
			2, 2, "2:page_unreadable", "invalid page number: 2"},
		// MuPDF falls back to a slow page lookup at open and makes page 2
		// an empty page of its own, with no error while loading it: it
		// landed as a blank page, unflagged.
		{"xref off by 7, page 2 object damaged", shiftXref(bytes.Replace(midPage, []byte("5 0 obj"), []byte("5 0 oXj"), 1), 7),
			2, 2, "2:page_unreadable,0:repaired", "page 2 is empty in a damaged file"},
		{"broken xref, nothing lost", breakXref(append([]byte(nil), two...)), 2, 2, "0:repaired", "MuPDF found all 2 pages it declares"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Extract(context.Background(), pdftest.WriteBytes(t, "f.pdf", tc.data), document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Pages) != tc.pages || res.Metadata.PageCount != tc.declared {
				t.Fatalf("pages %d declared %d, want %d %d", len(res.Pages), res.Metadata.PageCount, tc.pages, tc.declared)
			}
			if !strings.Contains(res.Pages[0].Text, "First page text here.") {
				t.Errorf("page 1 text %q", res.Pages[0].Text)
			}
			var got []string
			for _, v := range res.Reviews {
				got = append(got, fmt.Sprintf("%d:%s", v.Page, v.Code))
			}
			if len(res.Reviews) > 0 && !strings.Contains(res.Reviews[0].Message, tc.reviewMsg) {
				t.Errorf("message %q lacks %q", res.Reviews[0].Message, tc.reviewMsg)
			}
			if strings.Join(got, ",") != tc.review {
				t.Errorf("reviews %v, want %q", res.Reviews, tc.review)
			}
			if tc.review != "" && !strings.HasPrefix(tc.review, "0:") && res.Pages[1].ReviewReason == "" {
				t.Error("the lost page has no review reason")
			}
			// The plausibility check finds nothing more to say.
			n := len(res.Reviews)
			document.Check(res)
			if len(res.Reviews) != n {
				t.Errorf("Check added %v", res.Reviews[n:])
			}
		})
	}
}

// The raw scan counts page objects (last definition of a number wins) and
// the largest /Pages count.
func TestDeclaredPages(t *testing.T) {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>",
		"<< /Type /Page /Parent 2 0 R >>",
		"<< /Type/Page/Parent 2 0 R >>",
		"<< /Type /Pages /Kids [] /Count 0 >>",
	}
	data := pdftest.Assemble("1.4", objs, "")
	// an incremental update redefines object 5 as a page
	data = append(data, []byte("5 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n")...)
	count, objects := declaredPages(data)
	if count != 3 || objects != 3 {
		t.Errorf("count %d objects %d, want 3 3", count, objects)
	}
}

// An image-only page reports its scan's resolution: a 600x300 image drawn
// 300x150 pt large is 144 dpi, whether drawn upright or turned.
func TestScanDPI(t *testing.T) {
	img := "<< /Type /XObject /Subtype /Image /Width 600 /Height 300 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 180000 >>\nstream\n" +
		strings.Repeat("\x80", 180000) + "\nendstream"
	for _, tc := range []struct{ cm string }{{"300 0 0 150 100 400 cm"}, {"0 300 -150 0 300 300 cm"}} {
		content := "q " + tc.cm + " /Im1 Do Q\n"
		objs := []string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> >> >>",
			fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(content), content),
			img,
		}
		res, err := Extract(context.Background(), pdftest.WriteBytes(t, "scan.pdf", pdftest.Assemble("1.4", objs, "")), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if p := res.Pages[0]; !p.NeedsOCR || p.ScanDPI != 144 {
			t.Errorf("%s: needs OCR %v, scan dpi %d, want 144", tc.cm, p.NeedsOCR, p.ScanDPI)
		}
	}
}
