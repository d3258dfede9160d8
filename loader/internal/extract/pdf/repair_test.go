package pdf

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// damagedTwoPages is a two-page PDF whose second page's content stream is
// p2 (a whole stream object).
func damagedTwoPages(p2 string) []byte {
	page := func(c int) string {
		return fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", c)
	}
	return pdftest.Assemble("1.4", []string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		page(5), rawStream("BT /F1 12 Tf 72 700 Td (First page text here.) Tj ET"), page(7), p2}, "")
}

func rawStream(s string) string {
	return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(s), s)
}

// cutFlate is a FlateDecode stream of s with its last third cut off.
func cutFlate(s string) string {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write([]byte(s))
	w.Close()
	b := z.Bytes()[:z.Len()*2/3]
	return fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", len(b), b)
}

// lostFromObjectStream is a one-page PDF 1.5 (cross-reference stream) whose
// font, object 6, is listed in object stream 8, which does not hold it.
func lostFromObjectStream() []byte { return objectStreamPDF(false) }

// objectStreamPDF is lostFromObjectStream's file; with treeInStream its
// page tree and page object sit in the object stream too, where a scan of
// the file's bytes cannot count them (as in the corpus's issue-461 and
// scotus-transcript-p1).
func objectStreamPDF(treeInStream bool) []byte {
	osBody := "9 0 << /Kind /Other >>"
	objs := map[int]string{
		1: "<< /Type /Catalog /Pages 2 0 R >>",
		2: "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
		4: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 6 0 R >> >> /Contents 5 0 R >>",
		5: rawStream("BT /F1 12 Tf 72 700 Td (First page text here.) Tj ET"),
	}
	inStream := []int{9}
	if treeInStream {
		o2, o4 := objs[2], objs[4]
		delete(objs, 2)
		delete(objs, 4)
		body := o2 + "\n" + o4 + "\n<< /Kind /Other >>"
		head := fmt.Sprintf("2 0 4 %d 9 %d ", len(o2)+1, len(o2)+1+len(o4)+1)
		osBody = head + body
		inStream = []int{2, 4, 9}
		objs[8] = fmt.Sprintf("<< /Type /ObjStm /N 3 /First %d /Length %d >>\nstream\n%s\nendstream", len(head), len(osBody), osBody)
	} else {
		objs[8] = fmt.Sprintf("<< /Type /ObjStm /N 1 /First 4 /Length %d >>\nstream\n%s\nendstream", len(osBody), osBody)
	}
	var b, x bytes.Buffer
	b.WriteString("%PDF-1.5\n")
	off := map[int]int{}
	for i := 1; i <= 8; i++ {
		if o, ok := objs[i]; ok {
			off[i] = b.Len()
			fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i, o)
		}
	}
	off[10] = b.Len()
	for i := 0; i <= 10; i++ {
		typ, f2 := byte(1), uint32(off[i])
		switch {
		case i == 0 || i == 3 || i == 7:
			typ, f2 = 0, 0
		case i == 6 || slices.Contains(inStream, i):
			typ, f2 = 2, 8
		}
		x.WriteByte(typ)
		binary.Write(&x, binary.BigEndian, f2)
		binary.Write(&x, binary.BigEndian, uint16(0))
	}
	fmt.Fprintf(&b, "10 0 obj\n<< /Type /XRef /Size 11 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n", x.Len())
	b.Write(x.Bytes())
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", off[10])
	return b.Bytes()
}

// cutTreeStreamPDF is a one-page PDF 1.5 whose page tree and page object
// sit in a compressed object stream (object 7) cut short after them (in
// the filler that follows them): MuPDF says so while it opens the file
// (counting its pages), before any page is read.
func cutTreeStreamPDF() []byte {
	return treeStreamPDF(func(b []byte) []byte { return b[:len(b)/2] })
}

// treeStreamPDF is cutTreeStreamPDF's file with its object stream's
// compressed bytes changed by mangle.
func treeStreamPDF(mangle func([]byte) []byte) []byte {
	o2 := "<< /Type /Pages /Kids [4 0 R] /Count 1 >>"
	o4 := "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>"
	r := rand.New(rand.NewSource(1))
	filler := make([]byte, 4000)
	for i := range filler {
		filler[i] = byte('a' + r.Intn(26))
	}
	o6 := "% " + string(filler)
	head := fmt.Sprintf("2 0 4 %d ", len(o2)+1)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write([]byte(head + o2 + "\n" + o4 + "\n" + o6))
	zw.Close()
	cut := mangle(z.Bytes())
	objs := map[int]string{
		1: "<< /Type /Catalog /Pages 2 0 R >>",
		3: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		5: rawStream("BT /F1 12 Tf 72 700 Td (First page text here.) Tj ET"),
		7: fmt.Sprintf("<< /Type /ObjStm /N 2 /First %d /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", len(head), len(cut), cut),
	}
	var b, x bytes.Buffer
	b.WriteString("%PDF-1.5\n")
	off := map[int]int{}
	for i := 1; i <= 7; i++ {
		if o, ok := objs[i]; ok {
			off[i] = b.Len()
			fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i, o)
		}
	}
	off[8] = b.Len()
	for i := 0; i <= 8; i++ {
		typ, f2, f3 := byte(1), uint32(off[i]), uint16(0)
		switch i {
		case 0, 6:
			typ, f2 = 0, 0
		case 2, 4:
			typ, f2, f3 = 2, 7, uint16(map[int]int{2: 0, 4: 1, 6: 2}[i])
		}
		x.WriteByte(typ)
		binary.Write(&x, binary.BigEndian, f2)
		binary.Write(&x, binary.BigEndian, f3)
	}
	fmt.Fprintf(&b, "8 0 obj\n<< /Type /XRef /Size 9 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n", x.Len())
	b.Write(x.Bytes())
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", off[8])
	return b.Bytes()
}

// A file MuPDF had to repair, or a page it read past damage in, is flagged
// `repaired` with what MuPDF did; a healthy file is not. Before, all of
// these landed with MuPDF's warnings only.
func TestRepairedFlagged(t *testing.T) {
	two := twoPagePDF()
	xrefRe := regexp.MustCompile(`(?m)^\d{10} 00000 n `)
	cases := []struct {
		name   string
		data   []byte
		review string   // "page:code,..."
		msg    []string // in the first review's message
	}{
		{"broken xref, nothing lost", xrefRe.ReplaceAll(two, []byte("0000000009 00000 n ")), "0:repaired",
			[]string{"rebuilt the file's index of objects (its cross-reference table)", "MuPDF found all 2 pages it declares", "Check the text against the file opened in a PDF viewer"}},
		{"bytes before the header", append([]byte("Processing pages 1 through 2.\nPage 1\n"), two...), "0:repaired",
			[]string{"does not start with its %PDF header", "MuPDF: cannot recognize version marker", "MuPDF found all 2 pages it declares"}},
		{"syntax errors on page 2", damagedTwoPages(rawStream("BT /F1 12 Tf 72 700 Td (Second page text.) Tj ] ) foo ET")), "2:repaired",
			[]string{"page 2 is damaged and MuPDF read past the damage: its content has syntax errors that MuPDF skipped", "Check the page's text against the page in a PDF viewer"}},
		{"compressed stream cut short on page 2", damagedTwoPages(cutFlate("BT /F1 12 Tf 72 700 Td (Second page first line.) Tj ET\nBT /F1 12 Tf 72 600 Td (Second page last line.) Tj ET\n")), "2:repaired",
			[]string{"page 2 is damaged", "a compressed stream on it ends early"}},
		{"object missing from its object stream", lostFromObjectStream(), "0:repaired",
			[]string{"left out 1 damaged object it could not read (6 0 R): whatever it held", "MuPDF found the one page it declares"}},
		{"page tree in an object stream, its count not found", objectStreamPDF(true), "0:repaired",
			[]string{"left out 1 damaged object it could not read (6 0 R)", "MuPDF read 1 page, and how many pages the file declares could not be found in it", "so pages may be missing"}},
		{"object stream cut short, read while opening the file", cutTreeStreamPDF(), "0:repaired",
			[]string{"read past the early end of a compressed stream while opening the file", "MuPDF read 1 page"}},
		{"healthy", two, "", nil},
		{"healthy, syntax-clean colour operator", damagedTwoPages(rawStream("BT /F1 12 Tf 72 700 Td (Second page text.) Tj 1 0 0 scn ET")), "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Extract(context.Background(), pdftest.WriteBytes(t, "f.pdf", tc.data), document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Pages[0].Text, "First page text here.") {
				t.Errorf("page 1 text %q", res.Pages[0].Text)
			}
			var got []string
			for _, v := range res.Reviews {
				got = append(got, fmt.Sprintf("%d:%s", v.Page, v.Code))
			}
			if strings.Join(got, ",") != tc.review {
				t.Fatalf("reviews %v, want %q (MuPDF: %q)", res.Reviews, tc.review, res.Warnings)
			}
			for _, m := range tc.msg {
				if !strings.Contains(res.Reviews[0].Message, m) {
					t.Errorf("message %q lacks %q", res.Reviews[0].Message, m)
				}
			}
			if v := res.Reviews; len(v) > 0 && v[0].Page > 0 && !strings.HasPrefix(res.Pages[v[0].Page-1].ReviewReason, "repaired: ") {
				t.Errorf("page %d's review reason %q", v[0].Page, res.Pages[v[0].Page-1].ReviewReason)
			}
		})
	}
}

// A file whose page tree is lost (its object deleted, or cut off with the
// end of a file that wrote it last) lands the pages its page objects hold,
// flagged: it was quarantined as "no page could be recovered".
func TestLostPageTreeRebuilt(t *testing.T) {
	var pages []pg
	for i := 1; i <= 4; i++ {
		pages = append(pages, pg{Items: column(72, 72, fmt.Sprintf("Page %d text here.", i))})
	}
	four := makePDF(pages)
	treeRe := regexp.MustCompile(`(?s)\n2 0 obj\n.*?endobj\n`)
	tree := treeRe.Find(four)
	if !bytes.Contains(tree, []byte("/Count 4")) {
		t.Fatal("fixture layout changed: object 2 is not the page tree")
	}
	noTree := treeRe.ReplaceAll(four, []byte("\n"))
	// the tree written last, after the pages, and no cross-reference table
	treeLast := append(bytes.Clone(noTree[:bytes.Index(noTree, []byte("xref"))]), tree[1:]...)
	cases := []struct {
		name  string
		data  []byte
		pages int
		msg   string
	}{
		{"page tree object deleted", noTree, 4, "docket rebuilt one from the 4 page objects found in the file"},
		{"tree written last, file cut in page 3's content", treeLast[:bytes.Index(treeLast, []byte("Page 3 text"))], 2,
			"MuPDF read 2 pages: how many the file had is not known (its page count was in the lost page tree), so pages may be missing"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Extract(context.Background(), pdftest.WriteBytes(t, "f.pdf", tc.data), document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Pages) != tc.pages {
				t.Fatalf("%d pages, want %d", len(res.Pages), tc.pages)
			}
			for i, p := range res.Pages {
				if want := fmt.Sprintf("Page %d text here.", i+1); p.Text != want {
					t.Errorf("page %d text %q, want %q", i+1, p.Text, want)
				}
			}
			if len(res.Reviews) != 1 || res.Reviews[0].Code != document.ReviewRepaired || !strings.Contains(res.Reviews[0].Message, tc.msg) {
				t.Errorf("reviews %v, want one repaired review saying %q", res.Reviews, tc.msg)
			}
		})
	}
}

// treeFixture is a file of four pages ("Page N text here.") and one page
// no node lists ("Removed page text."), their objects in the file in the
// order page 2, the removed page, page 4, page 1, page 3. The root /Pages
// node (object 2, listing node 4 with pages 1 and 2 and node 5 with pages
// 3 and 4) is deleted when dropRoot; else the catalog (object 1) is.
func treeFixture(t *testing.T, dropRoot bool) []byte {
	t.Helper()
	page := func(parent, contents int) string {
		return fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>", parent, contents)
	}
	text := func(s string) string { return rawStream("BT /F1 12 Tf 72 700 Td (" + s + ") Tj ET") }
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [4 0 R 5 0 R] /Count 4 >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		"<< /Type /Pages /Parent 2 0 R /Kids [12 0 R 6 0 R] /Count 2 >>", "<< /Type /Pages /Parent 2 0 R /Kids [14 0 R 10 0 R] /Count 2 >>",
		page(4, 7), text("Page 2 text here."), page(2, 9), text("Removed page text."), page(5, 11), text("Page 4 text here."),
		page(4, 13), text("Page 1 text here."), page(5, 15), text("Page 3 text here.")}
	data := pdftest.Assemble("1.4", objs, "")
	drop := regexp.MustCompile(`(?s)\n2 0 obj\n.*?endobj\n`)
	if !dropRoot {
		drop = regexp.MustCompile(`(?s)\n1 0 obj\n.*?endobj\n`)
	}
	if len(drop.FindAll(data, -1)) != 1 {
		t.Fatal("fixture layout changed")
	}
	return drop.ReplaceAll(data, []byte("\n"))
}

// A rebuilt page tree lists the pages in the order the surviving /Pages
// nodes of the lost tree give, then the pages no node lists: the old
// rebuild took every page object in file order (pages 2, 4, 1, 3 with the
// removed page second).
func TestRebuiltTreeKeepsSurvivingOrder(t *testing.T) {
	want := []string{"Page 1 text here.", "Page 2 text here.", "Page 3 text here.", "Page 4 text here.", "Removed page text."}
	for _, dropRoot := range []bool{true, false} {
		name := map[bool]string{true: "root node deleted", false: "catalog deleted"}[dropRoot]
		t.Run(name, func(t *testing.T) {
			res, err := Extract(context.Background(), pdftest.WriteBytes(t, "f.pdf", treeFixture(t, dropRoot)), document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range res.Pages {
				got = append(got, p.Text)
			}
			if !slices.Equal(got, want) {
				t.Errorf("pages %q, want %q", got, want)
			}
			msg := "rebuilt one from the 5 page objects found in the file, in the order the surviving parts of the lost tree list them, then 1 page that no part lists, in the order they appear in the file: it may be a page an edit of the file removed"
			if len(res.Reviews) == 0 || !strings.Contains(res.Reviews[0].Message, msg) {
				t.Errorf("reviews %v, want a repaired review saying %q", res.Reviews, msg)
			}
		})
	}
}

// pageOrder: nested nodes depth first, a page listed twice once, a loop
// of nodes ends, and pages no node lists last in file order.
func TestPageOrder(t *testing.T) {
	nodes := map[int][]int{2: {3, 9, 4}, 3: {6, 5}, 4: {7, 5, 2}}
	order, loose := pageOrder([]int{5, 6, 7, 8, 10}, []int{2, 3, 4}, nodes)
	if want := []int{6, 5, 7, 8, 10}; !slices.Equal(order, want) || loose != 2 {
		t.Errorf("order %v loose %d, want %v 2", order, loose, want)
	}
}
