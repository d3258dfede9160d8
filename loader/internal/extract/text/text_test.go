package text

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"
)

type el struct {
	cat   document.Category
	text  string
	level int
}

func run(t *testing.T, name string, data []byte) *document.Result {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := detect.Detect(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Extract(context.Background(), p, info, document.Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	checkOffsets(t, name, res)
	return res
}

func elements(res *document.Result) []el {
	var out []el
	for _, e := range res.Elements {
		out = append(out, el{e.Category, e.Text, e.Level})
	}
	return out
}

func equal(a, b []el) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func u16(s string, be, bom bool) []byte {
	u := utf16.Encode([]rune(s))
	if bom {
		u = append([]uint16{0xFEFF}, u...)
	}
	var out []byte
	for _, c := range u {
		if be {
			out = binary.BigEndian.AppendUint16(out, c)
		} else {
			out = binary.LittleEndian.AppendUint16(out, c)
		}
	}
	return out
}

func u32(s string) []byte {
	out := binary.LittleEndian.AppendUint32(nil, 0xFEFF)
	for _, r := range s {
		out = binary.LittleEndian.AppendUint32(out, uint32(r))
	}
	return out
}

const plain = "Quarterly Report\n\nSales grew in every région this quarter, the board said.\nIt expects more.\n\nImportant points:\n   - Hamburgers are delicious\n   - Dogs are the best\n      - nested point\n1. First step\n2) Second step\n\nDoylestown, PA 18901\n\nThe end.\n"

var plainWant = []el{
	{document.Title, "Quarterly Report", 1},
	{document.NarrativeText, "Sales grew in every région this quarter, the board said.\nIt expects more.", 0},
	{document.NarrativeText, "Important points:", 0},
	{document.ListItem, "Hamburgers are delicious", 2},
	{document.ListItem, "Dogs are the best", 2},
	{document.ListItem, "nested point", 3},
	{document.ListItem, "1. First step", 1},
	{document.ListItem, "2) Second step", 1},
	{document.NarrativeText, "Doylestown, PA 18901", 0},
	{document.NarrativeText, "The end.", 0},
}

func TestEncodings(t *testing.T) {
	cp1252 := strings.NewReplacer("é", "\xE9").Replace(plain)
	tests := []struct {
		name string
		data []byte
	}{
		{"utf8.txt", []byte(plain)},
		{"utf8-bom.txt", append([]byte{0xEF, 0xBB, 0xBF}, plain...)},
		{"crlf.txt", []byte(strings.ReplaceAll(plain, "\n", "\r\n"))},
		{"u16le-bom.txt", u16(plain, false, true)},
		{"u16be-bom.txt", u16(plain, true, true)},
		{"u16le.txt", u16(plain, false, false)},
		{"u16be.txt", u16(plain, true, false)},
		{"u32le.txt", u32(plain)},
		{"cp1252.txt", []byte(cp1252)},
		{"ebcdic037.txt", ebcdic(t, plain, false)},
		{"ebcdic037-nl.txt", bytes.ReplaceAll(ebcdic(t, plain, false), []byte{0x25}, []byte{0x15})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, tc.name, tc.data)
			if got := res.Pages[0].Text; got != plain {
				t.Errorf("page text %q", got)
			}
			if got := elements(res); !equal(got, plainWant) {
				t.Errorf("elements\n got %v\nwant %v", got, plainWant)
			}
			if res.Pages[0].Method != document.MethodNative || res.Type != detect.Text {
				t.Errorf("page %+v type %s", res.Pages[0], res.Type)
			}
			if res.Metadata.Title != "Quarterly Report" {
				t.Errorf("title %q", res.Metadata.Title)
			}
		})
	}
}

// ebcdic encodes s in code page 037, or 500 (which has [ ] ! ^ ¢ ¬ |
// where 037 has other characters).
func ebcdic(t *testing.T, s string, cp500 bool) []byte {
	t.Helper()
	out, err := charmap.CodePage037.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if cp500 {
		to500 := map[byte]byte{0xBA: 0x4A, 0xBB: 0x5A, 0x5A: 0x4F, 0xB0: 0x5F, 0x4A: 0xB0, 0x5F: 0xBA, 0x4F: 0xBB}
		for i, c := range out {
			if d, ok := to500[c]; ok {
				out[i] = d
			}
		}
	}
	return out
}

// TestEBCDIC: EBCDIC text (code pages 037 and 500) is recognised and
// decoded, never landed as the CJK-looking mojibake a charset guesser
// makes of it.
func TestEBCDIC(t *testing.T) {
	text := "Welcome aboard! The manifest [rev 2] lists 14 crates.\nCheck the seals! Report damage to the purser.\n"
	for _, c := range []struct {
		cp500 bool
		enc   string
	}{{false, detect.EBCDIC037}, {true, detect.EBCDIC500}} {
		data := ebcdic(t, text, c.cp500)
		info, _ := detect.DetectBytes("manifest.txt", data)
		if info.Encoding != c.enc || info.Type != detect.Text {
			t.Fatalf("cp500=%v: detected %+v, want %s text", c.cp500, info, c.enc)
		}
		res := run(t, "manifest.txt", data)
		if got := res.Pages[0].Text; got != text {
			t.Errorf("%s: text %q", c.enc, got)
		}
		if res.Metadata.Extra["encoding"] != c.enc {
			t.Errorf("%s: encoding %q", c.enc, res.Metadata.Extra["encoding"])
		}
	}
}

// TestImplausibleDecoding: bytes whose (declared or guessed) charset turns
// them into words mixing scripts are quarantined undecodable.
func TestImplausibleDecoding(t *testing.T) {
	latin1 := []byte("Sch\xf6ne Gr\xfc\xdfe aus K\xf6ln, M\xfcnchen und D\xfcsseldorf: gr\xfc\xdf die B\xe4ckerei, die Stra\xdfe, das M\xe4dchen und die H\xfctte.\n")
	_, err := ExtractBytes(context.Background(), latin1, detect.Info{Type: detect.Text, Encoding: "windows-1251"}, document.Options{})
	var de *document.Error
	if !errors.As(err, &de) || de.Kind != document.KindUndecodable || !strings.Contains(de.Msg, "implausible") {
		t.Fatalf("got %v, want undecodable (implausible)", err)
	}
	// The right charset lands.
	res, err := ExtractBytes(context.Background(), latin1, detect.Info{Type: detect.Text, Encoding: "windows-1252"}, document.Options{})
	if err != nil || !strings.Contains(res.Pages[0].Text, "Grüße aus Köln") {
		t.Fatalf("latin-1: %v", err)
	}
}

func TestSyntax(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		want  []el
		title string
	}{
		{"doc.md", "# Über uns\n\nSome *text* here.\n\n## Next steps ##\n- one\n- two\n\nSetext\n======\n\n```\n# not a heading\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n",
			[]el{
				{document.Title, "Über uns", 1},
				{document.NarrativeText, "Some text here.", 0},
				{document.Title, "Next steps", 2},
				{document.ListItem, "one", 1},
				{document.ListItem, "two", 1},
				{document.Title, "Setext", 1},
				{document.NarrativeText, "# not a heading", 0},
				{document.TableCat, "a | b\n1 | 2", 0},
			}, "Über uns"},
		{"doc.rst", "=====\nTitle\n=====\n\nIntro text.\n\nSection\n-------\n\nBody.\n\nOther\n=====\n\n* item\n",
			[]el{
				{document.Title, "Title", 1},
				{document.NarrativeText, "Intro text.", 0},
				{document.Title, "Section", 2},
				{document.NarrativeText, "Body.", 0},
				{document.Title, "Other", 3},
				{document.ListItem, "item", 1},
			}, "Title"},
		{"doc.org", "#+TITLE: My Notes\n#+AUTHOR: me\n* Top\nText under top.\n** Sub\n- a point\n#+BEGIN_SRC sh\n* not a heading\n#+END_SRC\n",
			[]el{
				{document.Title, "My Notes", 1},
				{document.Title, "Top", 1},
				{document.NarrativeText, "Text under top.", 0},
				{document.Title, "Sub", 2},
				{document.ListItem, "a point", 1},
				{document.NarrativeText, "* not a heading", 0},
			}, "My Notes"},
		{"rows.ndjson", "{\"a\": 1}\n{\"a\": 2}\n",
			[]el{{document.NarrativeText, `{"a": 1}`, 0}, {document.NarrativeText, `{"a": 2}`, 0}}, ""},
		{"obj.json", "{\n  \"title\": \"x\",\n  \"n\": 1\n}\n",
			[]el{{document.NarrativeText, "{\n  \"title\": \"x\",\n  \"n\": 1\n}", 0}}, ""},
		{"data.xml", "<?xml version=\"1.0\"?>\n<list><item><name>Trinidad &amp; Tobago</name><capital>Port of Spain</capital></item><item><name>France</name></item></list>",
			[]el{{document.NarrativeText, "Trinidad & Tobago\nPort of Spain", 0}, {document.NarrativeText, "France", 0}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, tc.name, []byte(tc.data))
			if got := elements(res); !equal(got, tc.want) {
				t.Errorf("elements\n got %v\nwant %v", got, tc.want)
			}
			if res.Metadata.Title != tc.title {
				t.Errorf("title %q, want %q", res.Metadata.Title, tc.title)
			}
		})
	}
}

func TestMarkdownTable(t *testing.T) {
	res := run(t, "t.md", []byte("Item | Price\n---|---\nApples | 1.99\nPears | 2.50\n"))
	if len(res.Tables) != 1 || res.Elements[0].TableSeq != 0 {
		t.Fatalf("tables %+v", res.Tables)
	}
	tb := res.Tables[0]
	if strings.Join(tb.Header, "|") != "Item|Price" || len(tb.Rows) != 2 || strings.Join(tb.Rows[1], "|") != "Pears|2.50" {
		t.Errorf("table %+v", tb)
	}
}

func TestSectionsAndOffsets(t *testing.T) {
	res := run(t, "s.md", []byte("# A\n\nè text\n\n## B 😀\n\nmore ü\n"))
	want := []string{"A", "A", "B 😀", "B 😀"}
	for i, e := range res.Elements {
		if e.Section != want[i] {
			t.Errorf("element %d section %q, want %q", i, e.Section, want[i])
		}
	}
	last := res.Elements[len(res.Elements)-1]
	// the page text is the read text, "A\n\nè text\n\nB 😀\n\nmore ü"
	if last.CharStart != 16 || last.CharEnd != 22 || res.Pages[0].Text != "A\n\nè text\n\nB 😀\n\nmore ü" {
		t.Errorf("code point offsets %d..%d, want 16..22 (page %q)", last.CharStart, last.CharEnd, res.Pages[0].Text)
	}
}

func TestEmptyAndWhitespace(t *testing.T) {
	for name, data := range map[string]string{"empty.txt": "", "ws.txt": " \n\t\n  \n"} {
		res, err := ExtractBytes(context.Background(), []byte(data), detect.Info{Type: detect.Text, Encoding: detect.UTF8}, document.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(res.Pages) != 1 || res.Pages[0].CharCount != 0 || len(res.Elements) != 0 {
			t.Errorf("%s: %+v", name, res)
		}
	}
}

func TestUndecodable(t *testing.T) {
	bin := []byte{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x0E, 0x0F, 'a', 'b'}
	_, err := ExtractBytes(context.Background(), bin, detect.Info{Type: detect.Text, Encoding: detect.UTF8}, document.Options{})
	var de *document.Error
	if !errors.As(err, &de) || de.Kind != document.KindUndecodable {
		t.Fatalf("got %v, want an undecodable *document.Error", err)
	}
	_, err = ExtractBytes(context.Background(), []byte("abc"), detect.Info{Type: detect.Text, Encoding: "no-such-charset"}, document.Options{})
	if !errors.As(err, &de) || de.Kind != document.KindUndecodable {
		t.Fatalf("got %v, want an undecodable *document.Error", err)
	}
}

func TestLateInvalidUTF8(t *testing.T) {
	// Valid UTF-8 in the part detection read, Latin-1 later on.
	data := []byte(strings.Repeat("plain ascii line\n", 2000) + "caf\xE9 cr\xE8me br\xFBl\xE9e na\xEFve " + strings.Repeat("\xE9t\xE9 ", 40) + "\n")
	res, err := ExtractBytes(context.Background(), data, detect.Info{Type: detect.Text, Encoding: detect.UTF8}, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Pages[0].Text, "café crème") {
		t.Errorf("legacy tail not decoded: %q", res.Pages[0].Text[len(res.Pages[0].Text)-80:])
	}
}

func TestFixture(t *testing.T) {
	p := filepath.Join("testdata", "latin1-notes.md")
	info, err := detect.Detect(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Extract(context.Background(), p, info, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkOffsets(t, p, res)
	got := elements(res)
	want := []el{{document.Title, "Überschrift", 1}, {document.NarrativeText, "Schöne Grüße aus München.", 0}, {document.ListItem, "Äpfel", 1}, {document.ListItem, "Öl", 1}}
	if !equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestDecomposedTextComposed: a text file written decomposed ("a" + U+0308
// for "ä", as pip's AUTHORS.txt writes "Martin Häcker" and Node.js's
// changelogs "Dominykas Blyžė") lands in NFC, as HTML does since html/22, so
// that a typed name matches it in SQL; in XML the markup is read first (NFC
// of the source could join a mark to a ">" before it).
func TestDecomposedTextComposed(t *testing.T) {
	nfd := func(s string) string { return norm.NFD.String(s) }
	for name, data := range map[string]string{
		"AUTHORS.txt": "Martin " + nfd("Häcker") + "\nDominykas " + nfd("Blyžė") + "\n",
		"notes.md":    "# " + nfd("Größe") + "\n\nMartin " + nfd("Häcker") + " wrote it.\n",
		"names.xml":   "<names><n>Martin " + nfd("Häcker") + "</n><n>Dominykas " + nfd("Blyžė") + "</n></names>",
	} {
		res := run(t, name, []byte(data))
		text := res.Pages[0].Text
		if !norm.NFC.IsNormalString(text) || !strings.Contains(text, "Häcker") {
			t.Errorf("%s: page text %q is not composed", name, text)
		}
		for _, e := range res.Elements {
			if !norm.NFC.IsNormalString(e.Text) {
				t.Errorf("%s: element %q is not composed", name, e.Text)
			}
		}
	}
}
