package text

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/textproc"
)

// markupLeft are pieces of source markup that no read Markdown, Org or
// reStructuredText text shows.
var markupLeft = []string{"**", "](", "[^", "![", "\n> ", ":PROPERTIES:", ":LOGBOOK:", ":END:", "#+", ".. ", "::", ":math:", ":ref:", "`", "[[", "]]", "|---", "+---", "===", "---\n", "title:", "[#]"}

// TestMarkupReadAsText: pandoc's Markdown, Org and reStructuredText of one
// document (testdata/markup/rich.*, pandoc 2.17 from rich.md) land the
// words pandoc's plain-text rendering has, with headings, list levels, the
// table, the front matter / title block as metadata, and no markup left
// in the page text. Before, each landed as its source: front matter as a
// Title, "**412 vessels**", "[text](url)", "[^1]", ".. code:: python",
// ":math:`...`", "#+begin_src" in the page text and chunks.
func TestMarkupReadAsText(t *testing.T) {
	plain, err := os.ReadFile(filepath.Join("testdata", "markup", "rich.plain.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := textproc.WordBag(string(plain))
	for _, name := range []string{"rich.md", "rich.org", "rich.rst"} {
		src, err := os.ReadFile(filepath.Join("testdata", "markup", name))
		if err != nil {
			t.Fatal(err)
		}
		res := run(t, name, src)
		page := res.Pages[0].Text
		for _, m := range markupLeft {
			if strings.Contains(page, m) {
				t.Errorf("%s: page text keeps the markup %q:\n%s", name, m, page)
			}
		}
		// the title comes from the metadata (front matter, #+TITLE, the
		// document title), which pandoc's plain output leaves out
		if name == "rich.rst" {
			// docutils shows the bibliographic fields under the title
			// (text/18); pandoc's plain output leaves them out, as the title
			for _, f := range []string{"Author: Ingrid Halvorsen", "Date: 2024-03-15"} {
				if !strings.Contains(page, f) {
					t.Errorf("rich.rst: page lacks its docinfo line %q", f)
				}
				page = strings.Replace(page, f, "", 1)
			}
		}
		got := textproc.WordBag(strings.Replace(page, "Quarterly Harbour Report", "", 1))
		if a := textproc.WordAgreement(got, want); a < 0.97 {
			t.Errorf("%s: words agree %.3f with pandoc's plain text, want >= 0.97\n%s", name, a, page)
		}
		m := res.Metadata
		if m.Title != "Quarterly Harbour Report" || m.Author != "Ingrid Halvorsen" || !strings.HasPrefix(m.Created, "2024-03-15") {
			t.Errorf("%s: metadata %+v", name, m)
		}
		if !strings.Contains(m.Extra["links"], "https://example.org/harbour") || !strings.Contains(m.Extra["images"], "terminal.png") {
			t.Errorf("%s: links %q images %q", name, m.Extra["links"], m.Extra["images"])
		}
		els := map[string]document.Element{}
		for _, e := range res.Elements {
			els[e.Text] = e
		}
		for text, cat := range map[string]document.Category{
			"Quarterly Harbour Report": document.Title, "Overview of operations": document.Title, "Outlook": document.Title,
			"Crude oil carriers": document.ListItem, "1. Berth Alpha served container ships.": document.ListItem,
			"[1] Provisional figure from the customs ledger, audited in April.": document.NarrativeText,
		} {
			if e, ok := els[text]; !ok || e.Category != cat {
				t.Errorf("%s: no %s %q (%+v)", name, cat, text, e)
			}
		}
		if e := els["Crude oil carriers"]; e.Level != 2 {
			t.Errorf("%s: nested item at level %d, want 2", name, e.Level)
		}
		if len(res.Tables) != 1 || !slices.Equal(res.Tables[0].Header, []string{"Month", "Vessels", "Tonnage"}) ||
			len(res.Tables[0].Rows) != 3 || !slices.Equal(res.Tables[0].Rows[2], []string{"March", "154", "483,500"}) {
			t.Errorf("%s: tables %+v", name, res.Tables)
		}
	}
}

// TestMarkupConstructs: task lists, reference links, HTML blocks and
// comments (Markdown); drawers, TODO keywords, emphasis, a table's empty
// cells and escaped example lines (Org); substitutions, footnotes, roles,
// admonitions, comments, grid tables and the bibliographic field list
// (reStructuredText).
func TestMarkupConstructs(t *testing.T) {
	cases := []struct {
		name, title, author string
		texts               []string
		header              []string
		rows                [][]string
		link                string
	}{
		{"extras.md", "Release notes", "", []string{"[x] Ship the loader", "[ ] Write the guide", "Held back: the vector index.",
			"Contact ops@example.com or see https://example.net/status."}, nil, nil, "https://example.org/guide"},
		{"extras.org", "Field log", "Ada Moreau", []string{"TODO Survey the east dock", "Read the crane manual first; see section 4 and rule 7.",
			"* not a heading"}, []string{"Crane", "Load", "Note"}, [][]string{{"C7", "", "rusted"}, {"C8", "40 t", ""}}, "https://example.org/manual"},
		{"extras.rst", "Pilotage rules", "Tomas Berg", []string{"Pilots board at Port of Gdynia within two hours [1]. See the tariff\nand fees.",
			"Night boarding costs double.", "[1] Since the 2023 rules."}, []string{"Vessel", "Fee"}, [][]string{{"Tanker", "1,200"}, {"Barge", "300"}}, "https://example.org/tariff"},
	}
	for _, tc := range cases {
		src, err := os.ReadFile(filepath.Join("testdata", "markup", tc.name))
		if err != nil {
			t.Fatal(err)
		}
		res := run(t, tc.name, src)
		page := res.Pages[0].Text
		for _, m := range append(markupLeft, "<div", "<!--", "editor's comment", "CUSTOM_ID", "not text", "|port|", "[g]") {
			if strings.Contains(page, m) {
				t.Errorf("%s: page text keeps %q:\n%s", tc.name, m, page)
			}
		}
		var texts []string
		for _, e := range res.Elements {
			texts = append(texts, e.Text)
		}
		for _, w := range tc.texts {
			if !slices.Contains(texts, w) {
				t.Errorf("%s: no element %q in %q", tc.name, w, texts)
			}
		}
		if res.Metadata.Title != tc.title || res.Metadata.Author != tc.author || !strings.Contains(res.Metadata.Extra["links"], tc.link) {
			t.Errorf("%s: metadata %+v", tc.name, res.Metadata)
		}
		if tc.header != nil && (len(res.Tables) != 1 || !slices.Equal(res.Tables[0].Header, tc.header) ||
			!slices.EqualFunc(res.Tables[0].Rows, tc.rows, slices.Equal)) {
			t.Errorf("%s: tables %+v", tc.name, res.Tables)
		}
	}
}

// TestOrgLongExampleBlockBounded: go-org builds an example block's (and a
// LaTeX environment's) text by appending line after line to a string; a
// 750 KB block is taken out before go-org reads the file, so reading it
// allocates in proportion to its size (it copied ~9 GB through go-org; a
// 380 KB LaTeX environment 5.7 GB).
func TestOrgLongExampleBlockBounded(t *testing.T) {
	for _, form := range [][2]string{{"#+begin_example", "#+end_example"}, {"\\begin{verbatim}", "\\end{verbatim}"}} {
		var sb strings.Builder
		sb.WriteString("* Log\n" + form[0] + "\n")
		for i := 0; i < 30000; i++ {
			sb.WriteString("2024-05-01 line of a log\n")
		}
		sb.WriteString(form[1] + "\n")
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res := run(t, "log.org", []byte(sb.String()))
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
			t.Errorf("%s: reading a 750 KB Org file allocated %d MB", form[0], n>>20)
		}
		if len(res.Elements) != 2 || strings.Count(res.Elements[1].Text, "line of a log") != 30000 {
			t.Errorf("%s: elements %d", form[0], len(res.Elements))
		}
		if form[0][0] == '\\' && !strings.HasPrefix(res.Elements[1].Text, form[0]+"\n2024-05-01") {
			t.Errorf("%s: %.60q", form[0], res.Elements[1].Text)
		}
	}
}

// TestFrontMatterShownFieldsAreText (review44's MEDIUM on text/13): a post's
// description, summary and tags, which a site shows with its text, land as
// text after the title, not only in Extra where no chunk or search reads
// them; and a note that opens with a "---" rule around a sentence holding
// ": " keeps that sentence (text/13 took it for front matter and landed
// "Body" only).
func TestFrontMatterShownFieldsAreText(t *testing.T) {
	post := "---\ntitle: Harbour dredging resumes\ndescription: Work on the north basin restarts in May after a two-year pause.\ntags: [dredging, north-basin]\nlayout: post\n---\n\nThe port authority said on Monday that the contract was signed.\n"
	res := run(t, "post.md", []byte(post))
	page := res.Pages[0].Text
	for _, w := range []string{"Harbour dredging resumes", "Work on the north basin restarts in May", "Tags: dredging, north-basin", "The port authority said"} {
		if !strings.Contains(page, w) {
			t.Errorf("page text lacks %q:\n%s", w, page)
		}
	}
	if strings.Contains(page, "layout") || strings.Contains(page, "post\n") {
		t.Errorf("a field no reader shows landed as text:\n%s", page)
	}
	if i, j := strings.Index(page, "Harbour dredging"), strings.Index(page, "Work on the north"); i < 0 || j < i {
		t.Errorf("the description is not after the title:\n%s", page)
	}
	if res.Metadata.Extra["description"] == "" {
		t.Error("the description left Extra")
	}

	note := "---\nThis note opens with a rule, not front matter: Quentin Zarkowski signs it.\n---\n\nBody of the note.\n"
	res = run(t, "note.md", []byte(note))
	if page := res.Pages[0].Text; !strings.Contains(page, "Quentin Zarkowski signs it") || !strings.Contains(page, "Body of the note") {
		t.Errorf("a rule-opened note lost its words:\n%s", page)
	}
	if res.Metadata.Extra["front_matter"] != "" {
		t.Errorf("a sentence taken for front matter: %q", res.Metadata.Extra["front_matter"])
	}
}

// TestCalendarTailAfterTurkish (review44's LOW on text/13's tail check): the
// text after a calendar's last END:VCALENDAR was found in an upper-cased
// copy, whose byte offsets differ where a letter changes length ("ı" ->
// "I"): a Turkish event was warned of a tail it did not have.
func TestCalendarTailAfterTurkish(t *testing.T) {
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\nBEGIN:VEVENT\r\nUID:1@x\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:20240102T100000Z\r\nSUMMARY:Kayıt ve ödeme sırası\\, ıslak ıslık ılık\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	res := run(t, "tr.ics", []byte(ics))
	for _, w := range res.Warnings {
		if strings.Contains(w, "after the calendar") {
			t.Errorf("a tail warned that is not there: %s", w)
		}
	}
	if !strings.Contains(res.Pages[0].Text, "ıslak ıslık") {
		t.Errorf("the event did not land: %q", res.Pages[0].Text)
	}
	if i := lastIndexFoldASCII("x end:vcalendar y END:VCALENDAR\r\n", "END:VCALENDAR"); i != 18 {
		t.Errorf("lastIndexFoldASCII = %d", i)
	}
}

// TestCalendarUnescapedCommasKeepTheText: a producer that leaves a TEXT
// value's commas unescaped (RFC 5545 wants "\,") lost everything after the
// first comma of a summary, location or description, silently: go-ical's
// Text() is the first item of a comma list.
func TestCalendarUnescapedCommasKeepTheText(t *testing.T) {
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//y//EN\r\nBEGIN:VEVENT\r\nUID:1@x\r\nDTSTAMP:20240101T000000Z\r\nDTSTART:20240102T100000Z\r\nSUMMARY:Budget review, Q3 forecast\r\nLOCATION:Room 4, Building B\r\nDESCRIPTION:Bring the draft, the cost sheet and the vendor list.\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	page := run(t, "c.ics", []byte(ics)).Pages[0].Text
	for _, w := range []string{"Budget review, Q3 forecast", "Room 4, Building B", "the cost sheet and the vendor list"} {
		if !strings.Contains(page, w) {
			t.Errorf("lost %q:\n%s", w, page)
		}
	}
}

// TestTOMLFrontMatter: Hugo's default front matter, TOML between "+++"
// lines, is read as the YAML kind is (title, date, the fields a site
// shows); it landed as source lines in the page text ("+++", `title =
// "..."`), the title not taken. A "+++" opening that is no TOML stays text.
func TestTOMLFrontMatter(t *testing.T) {
	post := "+++\ntitle = \"Harbour dredging resumes\"\ndate = 2024-03-15T09:00:00Z\ndescription = \"Work restarts in May.\"\ntags = [\"dredging\", \"north-basin\"]\ndraft = false\n[params]\n  image = \"dredger.jpg\"\n+++\n\nThe port authority said on Monday that the contract was signed.\n"
	res := run(t, "post.md", []byte(post))
	page := res.Pages[0].Text
	if res.Metadata.Title != "Harbour dredging resumes" || !strings.HasPrefix(res.Metadata.Created, "2024-03-15") {
		t.Errorf("metadata %+v", res.Metadata)
	}
	for _, w := range []string{"Harbour dredging resumes", "Work restarts in May.", "Tags: dredging, north-basin", "The port authority said"} {
		if !strings.Contains(page, w) {
			t.Errorf("page text lacks %q:\n%s", w, page)
		}
	}
	for _, w := range []string{"+++", "title =", "draft", "dredger.jpg"} {
		if strings.Contains(page, w) {
			t.Errorf("page text keeps %q:\n%s", w, page)
		}
	}
	if !strings.Contains(res.Metadata.Extra["front_matter"], "dredger.jpg") {
		t.Errorf("front_matter %q", res.Metadata.Extra["front_matter"])
	}
	odd := "+++\nThis is no TOML, just a banner line.\n+++\n\nBody text.\n"
	if page := run(t, "odd.md", []byte(odd)).Pages[0].Text; !strings.Contains(page, "This is no TOML") || !strings.Contains(page, "Body text") {
		t.Errorf("a banner lost its words:\n%s", page)
	}
}
