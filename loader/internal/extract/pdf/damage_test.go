package pdf

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// flateStream is a FlateDecode stream of s, its compressed bytes changed
// by mangle.
func flateStream(s string, mangle func([]byte)) string {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write([]byte(s))
	w.Close()
	b := z.Bytes()
	mangle(b)
	return fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", len(b), b)
}

// twoPartPage is a two-page PDF whose second page's content is split in
// two streams: "Second page text here." and part (a whole stream object).
func twoPartPage(part string) []byte {
	return twoParts("BT /F1 12 Tf 72 700 Td (Second page text here.) Tj ET", part)
}

// twoParts is a two-page PDF whose second page's content is split in two
// streams: first (content) and part (a whole stream object).
func twoParts(first, part string) []byte {
	page := func(c string) string {
		return "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents " + c + " >>"
	}
	return pdftest.Assemble("1.4", []string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		page("5 0 R"), rawStream("BT /F1 12 Tf 72 700 Td (First page text here.) Tj ET"),
		page("[7 0 R 8 0 R]"), rawStream(first), part}, "")
}

// cidFontPage is a one-page PDF whose text "First page text here." is
// set in Helvetica and two more codes in a CID font named name whose
// descendant font's dictionary ends in desc (object 7 is a font
// descriptor).
func cidFontPage(name, desc string) []byte {
	return cidFontPageOf(name, desc, "BT /F1 12 Tf 72 700 Td (First page text here.) Tj ET BT /F2 12 Tf 72 600 Td <00410042> Tj ET")
}

// cidFontPageOf is cidFontPage with content instead of its text (F1 is
// Helvetica, F2 the CID font).
func cidFontPageOf(name, desc, content string) []byte {
	return pdftest.Assemble("1.4", []string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 6 0 R >> >> /Contents 5 0 R >>",
		rawStream(content),
		"<< /Type /Font /Subtype /Type0 /BaseFont /" + name + " /Encoding /Identity-H /DescendantFonts [7 0 R] >>",
		"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /" + name + " " + desc + " >>",
		"<< /Type /FontDescriptor /FontName /" + name + " /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>"}, "")
}

// MuPDF's messages that text may be missing or wrong, other than the
// early end of a stream, give a review reason in plain words: before,
// these pages landed with the messages as warnings only, status landed.
func TestDamageMessagesFlagged(t *testing.T) {
	const body = "BT /F1 12 Tf 72 600 Td (Second page second part.) Tj ET\n"
	japan := "/CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> /FontDescriptor 8 0 R"
	cases := []struct {
		name   string
		data   []byte
		review string // "page:code"
		msg    []string
		text   string // on the review's page
	}{
		{"corrupt compressed part of a page", twoPartPage(flateStream(body, func(b []byte) {
			for i := 2; i < len(b); i++ {
				b[i] = byte(i * 7) // garbage after the zlib header
			}
		})), "2:repaired", []string{"page 2 is damaged and MuPDF read past the damage: a compressed stream on it is corrupt", "text it held may be missing or wrong (MuPDF: zlib error: "}, "Second page text here."},
		{"compressed part whose checksum does not match", twoPartPage(flateStream(body, func(b []byte) { b[len(b)-1] ^= 0xff })),
			"2:repaired", []string{"a compressed stream on it decoded to its end but its checksum does not match", "(MuPDF: ignoring zlib error: incorrect data check)"}, "Second page second part."},
		{"text shown before any font", damagedTwoPages(rawStream("BT 72 600 Td (Lost text.) Tj ET BT /F1 12 Tf 72 700 Td (Second page text here.) Tj ET")),
			"2:repaired", []string{"some of its text is shown before any font is chosen, which MuPDF does not draw: that text is missing"}, "Second page text here."},
		{"font without a descriptor", cidFontPage("TestSans", "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>"),
			"1:font_unreadable", []string{"page 1: a font it uses could not be loaded", "read the text set in it with a stand-in font", "(MuPDF: missing font descriptor)"}, "First page text here."},
		{"CJK font MuPDF does not have", cidFontPage("MSMincho", japan),
			"1:font_unreadable", []string{"a font it uses could not be loaded", "(MuPDF: cannot find builtin CJK font)"}, "First page text here."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Extract(context.Background(), pdftest.WriteBytes(t, "f.pdf", tc.data), document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range res.Reviews {
				got = append(got, fmt.Sprintf("%d:%s", v.Page, v.Code))
			}
			if strings.Join(got, ",") != tc.review {
				t.Fatalf("reviews %v, want %q (MuPDF: %q)", res.Reviews, tc.review, res.Warnings)
			}
			v := res.Reviews[0]
			for _, m := range tc.msg {
				if !strings.Contains(v.Message, m) {
					t.Errorf("message %q lacks %q", v.Message, m)
				}
			}
			if p := res.Pages[v.Page-1]; !strings.Contains(p.Text, tc.text) || !strings.HasPrefix(p.ReviewReason, v.Code+": ") {
				t.Errorf("page %d: text %q, review reason %q", v.Page, p.Text, p.ReviewReason)
			}
		})
	}
}

// Every message class has words for a page, and a message in none stays
// a warning.
func TestDamageClasses(t *testing.T) {
	for _, c := range damageClasses {
		if c.page == "" || (c.code != document.ReviewRepaired && c.code != document.ReviewFontUnreadable) {
			t.Errorf("class %v: no words for a page, or code %q", c.keys, c.code)
		}
	}
	benign := []string{"non-embedded font using identity encoding: TestSans (mapping via )", "invalid link destination",
		"ICC colorspace N=0 does not match profile N=3 (ignoring profile)", "ignoring CMap range (32-32) that is outside of the codespace",
		"zlib error: inflateEnd: stream error"}
	for _, w := range benign {
		if c := damageOf(w); c != nil {
			t.Errorf("%q is in class %v", w, c.keys)
		}
	}
	// a read error is said only when nothing else explains it
	ws := []string{"error: library error: zlib error: invalid distance too far back", "read error; treating as end of file"}
	if h := pageDamage(ws); strings.Contains(h.damage, "could not be read to its end") || !strings.Contains(h.damage, "is corrupt") {
		t.Errorf("page damage %q", h.damage)
	}
	if h := pageDamage(ws[1:]); !strings.Contains(h.damage, "could not be read to its end") {
		t.Errorf("page damage %q", h.damage)
	}
}

// A page whose content is a flood of unknown keywords: MuPDF reports each
// (an error), gives up after a hundred and says so in a warning ("too many
// syntax errors; ignoring rest of page"). The flood filled the message log
// (64 a page), so that warning was dropped with it, and the page landed
// without its last line and with no review.
func TestSyntaxErrorFloodFlagged(t *testing.T) {
	var junk strings.Builder
	for i := 0; i < 150; i++ {
		fmt.Fprintf(&junk, "junk%d ", i)
	}
	data := damagedTwoPages(rawStream("BT /F1 12 Tf 72 700 Td (First line of text here.) Tj ET " + junk.String() + "BT /F1 12 Tf 72 600 Td (Last line.) Tj ET"))
	res, err := Extract(context.Background(), pdftest.WriteBytes(t, "f.pdf", data), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Pages[1].Text, "Last line.") {
		t.Fatalf("page 2 %q: MuPDF read past the flood; the test no longer makes it give up", res.Pages[1].Text)
	}
	if len(res.Reviews) != 1 || res.Reviews[0].Page != 2 || res.Reviews[0].Code != document.ReviewRepaired ||
		!strings.Contains(res.Reviews[0].Message, "MuPDF stopped reading it part-way: the rest of the page is missing") {
		t.Errorf("reviews %v, want page 2 repaired: the rest of the page is missing", res.Reviews)
	}
}

// junk is n unknown keywords: MuPDF reports each as an error.
func junk(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "junk%d ", i)
	}
	return b.String()
}

// A message saying text is lost that comes after the log's cap (64
// errors a page) gives the same review as when it comes early: before,
// it only counted in "N more MuPDF messages dropped", and a page whose
// compressed part is corrupt, or whose font MuPDF could not load, landed
// with no word of it (the font one with no review at all). Each page is
// read after 3 unknown keywords and after 70 (under MuPDF's 100, so it
// reads on), and the reviews must be the same.
func TestDamagePastTheCap(t *testing.T) {
	corrupt := flateStream("BT /F1 12 Tf 72 600 Td (Second page second part.) Tj ET\n", func(b []byte) {
		for i := 2; i < len(b); i++ {
			b[i] = byte(i * 7) // garbage after the zlib header
		}
	})
	cases := []struct {
		name string
		page func(junk string) []byte
		want []string // in the review of the page's code
		code string
		kind string // the class's name in the dropped line
	}{
		{"corrupt compressed part", func(j string) []byte {
			return twoParts(j+"BT /F1 12 Tf 72 700 Td (Second page text here.) Tj ET", corrupt)
		}, []string{"a compressed stream on it is corrupt", "(MuPDF: zlib error: "}, document.ReviewRepaired, "zlib error"},
		{"font MuPDF could not load", func(j string) []byte {
			return cidFontPageOf("TestSans", "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>",
				"BT /F1 12 Tf 72 700 Td (First page text here.) Tj ET "+j+"BT /F2 12 Tf 72 600 Td <00410042> Tj ET")
		}, []string{"a font it uses could not be loaded", "(MuPDF: missing font descriptor)"}, document.ReviewFontUnreadable, "missing font descriptor"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var reviews [2]string
			for i, n := range []int{3, 70} {
				res, err := Extract(context.Background(), pdftest.WriteBytes(t, "f.pdf", tc.page(junk(n))), document.Options{})
				if err != nil {
					t.Fatal(err)
				}
				found := false
				for _, v := range res.Reviews {
					reviews[i] += fmt.Sprintf("%d:%s:%s\n", v.Page, v.Code, v.Message)
					if v.Code != tc.code {
						continue
					}
					found = true
					for _, w := range tc.want {
						if !strings.Contains(v.Message, w) {
							t.Errorf("%d unknown keywords: review %q lacks %q", n, v.Message, w)
						}
					}
				}
				if !found {
					t.Errorf("%d unknown keywords: no %s review in %v", n, tc.code, res.Reviews)
				}
				// the count of what was dropped names the kind kept
				dropped := ""
				for _, w := range res.Warnings {
					if strings.Contains(w, "more MuPDF messages dropped") {
						dropped = w
					}
				}
				if n > 64 && !strings.Contains(dropped, tc.kind+": 1") {
					t.Errorf("%d unknown keywords: dropped line %q does not count %q", n, dropped, tc.kind)
				}
			}
			if reviews[0] != reviews[1] {
				t.Errorf("reviews differ past the cap:\n%s\nearly:\n%s", reviews[1], reviews[0])
			}
		})
	}
}

// walk.c's log keeps the first message past its cap of every class.
func TestDamageClassesFitTheLog(t *testing.T) {
	if len(damageClasses) > logClassMax {
		t.Errorf("%d damage classes, walk.h's DK_CLASS_MAX is %d", len(damageClasses), logClassMax)
	}
}
