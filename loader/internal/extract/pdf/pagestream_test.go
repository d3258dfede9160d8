package pdf

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// The streamed scan of a file too large for memory finds what the scan of
// its bytes in memory finds, whatever the chunk size cuts.
func TestDeclaredPagesStreamed(t *testing.T) {
	two := twoPagePDF()
	update := append(pdftest.Assemble("1.4", []string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>",
		"<< /Type /Page /Parent 2 0 R >>", "<< /Type/Page/Parent 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"}, ""),
		"5 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n3 0 obj\n<< /Type /Font >>\nendobj\n"...)
	fixtures := map[string][]byte{
		"two pages": two, "tree count under its kids": bytes.Replace(two, []byte("/Count 2"), []byte("/Count 1"), 1),
		"incremental updates": update, "lost tree": treeFixture(t, true), "page 2 damaged": damagedTwoPages(cutFlate(strings.Repeat("BT (x) Tj ET\n", 500))),
		"spaced headers": []byte("%PDF-1.4\n1    0    obj << /Type /Page >> endobj\n2 0 obj<</Type/Pages/Count 7>>stream\n12 0 obj\nendstream endobj"),
		// damaged: words like a header run into endobj ("3 0 objendobj" is
		// no header: the count is 3), objects without endobj
		"header words before endobj": []byte("%PDF-1.4\n1 0 obj\n<< /Type /Pages /Count 3 0 objendobj\n2 0 obj\n<< /Type /Page >>\nendobj\n"),
		"no endobj":                  noEndobj(300),
	}
	for name, data := range fixtures {
		wantCount, wantObjects := declaredPages(data)
		path := pdftest.WriteBytes(t, "f.pdf", data)
		for _, chunk := range []int{1, 5, 17, 64, 200, scanChunk} {
			count, objects, err := declaredPagesFile(path, chunk)
			if err != nil || count != wantCount || objects != wantObjects {
				t.Errorf("%s, chunks of %d: count %d objects %d (%v), want %d %d", name, chunk, count, objects, err, wantCount, wantObjects)
			}
		}
	}
}

// A file too large to be held in memory (opened by path) is checked
// against the page count it declares too, by a streamed scan: it had no
// check (pages_missing never said), and a lost page tree, which docket
// does not rebuild for such a file, says so in the quarantine reason.
func TestLargeFileDeclaredCount(t *testing.T) {
	defer func(n int64) { maxInMemory = n }(maxInMemory)
	maxInMemory = 64 // every fixture is opened by path
	two := twoPagePDF()
	res, err := Extract(context.Background(), pdftest.WriteBytes(t, "f.pdf", bytes.Replace(two, []byte("/Count 2"), []byte("/Count 1"), 1)), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range res.Reviews {
		got = append(got, fmt.Sprintf("%d:%s", v.Page, v.Code))
	}
	if len(res.Pages) != 1 || res.Metadata.PageCount != 2 || strings.Join(got, ",") != "0:pages_missing,0:repaired" ||
		!strings.Contains(res.Reviews[0].Message, "declares 2 pages (page tree count 1, 2 page objects) but only 1 could be read") {
		t.Errorf("pages %d, declared %d, reviews %v", len(res.Pages), res.Metadata.PageCount, res.Reviews)
	}
}

// A file too large to be held in memory whose page tree is lost lands its
// page objects, as a file in memory does (TestRebuiltTreeKeepsSurvivingOrder):
// the tree is rebuilt from a streamed scan and MuPDF reads the file and
// the rebuilt tree as one stream. It was quarantined ("too large for
// docket to rebuild its lost page tree").
func TestLargeFileLostTreeRebuilt(t *testing.T) {
	defer func(n int64) { maxInMemory = n }(maxInMemory)
	want := []string{"Page 1 text here.", "Page 2 text here.", "Page 3 text here.", "Page 4 text here.", "Removed page text."}
	for _, dropRoot := range []bool{true, false} {
		data := treeFixture(t, dropRoot)
		path := pdftest.WriteBytes(t, "f.pdf", data)
		maxInMemory = 256 << 20
		inMemory, err := Extract(context.Background(), path, document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		maxInMemory = 64 // opened by path
		res, err := Extract(context.Background(), path, document.Options{})
		if err != nil {
			t.Fatalf("root dropped %v: %v", dropRoot, err)
		}
		var got []string
		for _, p := range res.Pages {
			got = append(got, p.Text)
		}
		if !slices.Equal(got, want) {
			t.Errorf("root dropped %v: pages %q, want %q", dropRoot, got, want)
		}
		if len(res.Reviews) == 0 || len(inMemory.Reviews) == 0 || res.Reviews[0].Message != inMemory.Reviews[0].Message {
			t.Errorf("root dropped %v: reviews %v, in memory %v", dropRoot, res.Reviews, inMemory.Reviews)
		}
		// the streamed scan appends what the scan in memory does
		fixed, kids, loose := withPageTree(data)
		count, objects := declaredPages(data)
		for _, chunk := range []int{1, 7, 64, scanChunk} {
			ft, err := pageTreeFile(path, chunk)
			if err != nil || ft.kids != kids || ft.loose != loose || string(data)+string(ft.tail) != string(fixed) || ft.count != count || ft.objects != objects {
				t.Errorf("root dropped %v, chunks of %d: %+v (%v), want %d kids %d loose, count %d objects %d", dropRoot, chunk, ft, err, kids, loose, count, objects)
			}
		}
	}
}

// noEndobj is a file of n page objects, none closed by endobj.
func noEndobj(n int) []byte {
	b := []byte("%PDF-1.4\n")
	for i := 1; i <= n; i++ {
		b = fmt.Appendf(b, "%d 0 obj\n<< /Type /Page /Parent %d 0 R >>\n", i, n+1)
	}
	return fmt.Appendf(b, "%d 0 obj\n<< /Type /Pages /Count %d >>\n", n+1, n)
}

// A damaged file opened by path that cannot be read again for the
// declared-count check (removed since MuPDF opened it) says so: it was
// told its page tree "may sit in a compressed object stream".
func TestLargeFileUnreadForCount(t *testing.T) {
	defer func(n int64) { maxInMemory = n }(maxInMemory)
	maxInMemory = 64 // opened by path
	two := twoPagePDF()
	broken := regexp.MustCompile(`(?m)^\d{10} 00000 n `).ReplaceAll(two, []byte("0000000009 00000 n "))
	path := pdftest.WriteBytes(t, "f.pdf", broken)
	doc, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	res, err := Extractor{}.extract(context.Background(), doc, path, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Reviews) != 1 || res.Reviews[0].Code != document.ReviewRepaired ||
		!strings.Contains(res.Reviews[0].Message, "docket could not read the file again to find how many pages it declares (open "+path+": no such file or directory), so pages may be missing") ||
		strings.Contains(res.Reviews[0].Message, "compressed object stream") {
		t.Errorf("reviews %v", res.Reviews)
	}
}
