// Package extracttest is the contract every extractor's tests hold it to:
// Conform checks the invariants of a document.Result (a current extractor
// version, element offsets reproduce element text, sequence numbers, one
// definition of real characters, table links), Golden compares a result's stable JSON view
// with testdata/golden/<name>.json, rewritten by `go test -update`.
package extracttest

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/docket-dev/docket/loader/internal/testflags"
	"os"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/version"
)

var update = testflags.Update

// Conform checks the invariants every extractor's result must hold.
func Conform(t testing.TB, name string, res *document.Result) {
	t.Helper()
	if res == nil {
		t.Fatalf("%s: nil result", name)
	}
	// A version the loader does not know as current would make every
	// load extract the content again.
	if res.ExtractorVersion == "" || !version.Current(res.ExtractorVersion) {
		t.Errorf("%s: extractor version %q is not a current one (extract/version)", name, res.ExtractorVersion)
	}
	pages := map[int][]rune{}
	for i, p := range res.Pages {
		if p.Number != i+1 {
			t.Errorf("%s: page %d numbered %d", name, i+1, p.Number)
		}
		if p.CharCount != document.RealChars(p.Text) && p.Method != document.MethodNone {
			t.Errorf("%s: page %d CharCount %d, RealChars %d", name, p.Number, p.CharCount, document.RealChars(p.Text))
		}
		pages[p.Number] = []rune(p.Text)
	}
	for i, e := range res.Elements {
		if e.Seq != i {
			t.Errorf("%s: element %d has Seq %d", name, i, e.Seq)
		}
		page, ok := pages[e.Page]
		if !ok {
			t.Errorf("%s: element %d on page %d, which does not exist", name, i, e.Page)
			continue
		}
		if e.CharStart < 0 || e.CharEnd > len(page) || e.CharStart >= e.CharEnd {
			t.Errorf("%s: element %d offsets %d..%d outside page %d (%d)", name, i, e.CharStart, e.CharEnd, e.Page, len(page))
			continue
		}
		if got := string(page[e.CharStart:e.CharEnd]); got != e.Text {
			t.Errorf("%s: element %d text %q != page slice %q", name, i, e.Text, got)
		}
		if (e.Category == document.TableCat) != (e.TableSeq >= 0) || e.TableSeq >= len(res.Tables) {
			t.Errorf("%s: element %d (%s) TableSeq %d of %d tables", name, i, e.Category, e.TableSeq, len(res.Tables))
		}
	}
}

// ErrorKind is the *document.Error kind of err ("" when it is none).
func ErrorKind(err error) string {
	var de *document.Error
	if errors.As(err, &de) {
		return de.Kind
	}
	return ""
}

// View is the stable JSON shape of a result the golden files hold.
type View struct {
	Type        string            `json:"type"`
	Metadata    document.Metadata `json:"metadata"`
	Pages       []PageView        `json:"pages"`
	Elements    []ElementView     `json:"elements,omitempty"`
	Tables      []TableView       `json:"tables,omitempty"`
	Attachments []string          `json:"attachments,omitempty"`
	Warnings    []string          `json:"warnings,omitempty"`
	Reviews     []document.Review `json:"reviews,omitempty"`
	Error       string            `json:"error,omitempty"`
}

type PageView struct {
	Number int    `json:"number"`
	Method string `json:"method"`
	Chars  int    `json:"chars"`
	Text   string `json:"text"`
	Review string `json:"review,omitempty"`
}

type ElementView struct {
	Page     int    `json:"page"`
	Category string `json:"category"`
	Level    int    `json:"level,omitempty"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	Section  string `json:"section,omitempty"`
	Text     string `json:"text"`
}

type TableView struct {
	Page   int        `json:"page"`
	Header []string   `json:"header,omitempty"`
	Rows   [][]string `json:"rows"`
}

// ViewOf is res's golden view (err, when not nil, is recorded instead).
func ViewOf(res *document.Result, err error) View {
	if err != nil {
		return View{Error: err.Error()}
	}
	v := View{Type: res.Type, Metadata: res.Metadata, Warnings: res.Warnings, Reviews: res.AllReviews()}
	for _, p := range res.Pages {
		v.Pages = append(v.Pages, PageView{p.Number, p.Method, p.CharCount, p.Text, p.ReviewReason})
	}
	for _, e := range res.Elements {
		v.Elements = append(v.Elements, ElementView{e.Page, string(e.Category), e.Level, e.CharStart, e.CharEnd, e.Section, e.Text})
	}
	for _, tb := range res.Tables {
		v.Tables = append(v.Tables, TableView{tb.Page, tb.Header, tb.Rows})
	}
	for _, a := range res.Attachments {
		v.Attachments = append(v.Attachments, a.Name)
	}
	return v
}

// Golden compares the view of (res, err) with testdata/golden/name.json,
// or rewrites that file under -update.
func Golden(t testing.TB, name string, res *document.Result, err error) {
	t.Helper()
	if err == nil {
		Conform(t, name, res)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if jerr := enc.Encode(ViewOf(res, err)); jerr != nil {
		t.Fatal(jerr)
	}
	got := buf.Bytes()
	p := filepath.Join("testdata", "golden", name+".json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, rerr := os.ReadFile(p)
	if rerr != nil {
		t.Fatalf("%s: %v (run go test -update to create it)", name, rerr)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", name, p, got)
	}
}
