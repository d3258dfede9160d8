package office

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

func categorisedTexts(res *document.Result) []string {
	var out []string
	for _, e := range res.Elements {
		out = append(out, string(e.Category)+": "+e.Text)
	}
	return out
}

// TestODFHiddenIsSaid (office/32): an ODT's hidden content (a section
// with text:display="none", a paragraph hidden by a hidden-paragraph
// field or by its style's parent, a hidden-text field, a span of a
// character style with text:display="none", a table's collapsed row and
// column) and an ODP's hidden slide (a drawing-page style's
// presentation:visibility="hidden") land as before and are said, as
// office/28 says a DOCX's, an XLSX's and a PPTX's: warnings, metadata
// hidden_text, hidden_rows / hidden_columns, hidden_slides. Before,
// nothing told them apart. The same document with nothing hidden
// (shown.odt: display="true", is-hidden="false", rows visible) lands the
// same text and says nothing. A hidden-text field written as LibreOffice
// writes one, its text in text:string-value only, lands that text (shown
// or hidden; it was lost), and the sixth passage is counted though only
// five are sampled (office/28's count stopped at the samples). Fixtures
// by odfpy (testdata/odfhidden/gen.py).
func TestODFHiddenIsSaid(t *testing.T) {
	open := func(name string) *document.Result {
		t.Helper()
		res, err := ExtractODT(context.Background(), filepath.Join("testdata", "odfhidden", name), document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	hidden, shown := open("hidden.odt"), open("shown.odt")
	want := []string{
		"Title: Board minutes",
		"NarrativeText: The harbour board met on 12 March.",
		"NarrativeText: Draft wording: the tender closes in April.",
		"NarrativeText: Second draft line.",
		"NarrativeText: Confidential remark for the chair.",
		"NarrativeText: The budget is 4.2 million for now.",
		"NarrativeText: Reviewer: Ann Berg",
		"NarrativeText: Dredging starts in May (subject to the vote).",
		"NarrativeText: Paragraph styled hidden by its parent style.",
		"Table: Item\tInternal\tCost\nDredging\tx1\t900\nSurvey\tx2\t40\nFees\t\t12",
		"NarrativeText: End of minutes.",
	}
	for _, res := range []*document.Result{hidden, shown} {
		if got := categorisedTexts(res); !reflect.DeepEqual(got, want) {
			t.Errorf("elements %q\nwant %q", got, want)
		}
	}
	if len(shown.Warnings) != 0 || len(shown.Metadata.Extra) != 0 {
		t.Errorf("shown.odt: warnings %q metadata %v", shown.Warnings, shown.Metadata.Extra)
	}
	md := hidden.Metadata.Extra
	if got, want := md["hidden_text"], "Draft wording: the tender closes in April. Second draft line.\tConfidential remark for the chair.\t4.2 million\tAnn Berg\t(subject to the vote)"; got != want {
		t.Errorf("hidden_text %q\nwant %q", got, want)
	}
	if md["hidden_rows"] != "table 1: 3" || md["hidden_columns"] != "table 1: B" {
		t.Errorf("metadata %v", md)
	}
	w := strings.Join(hidden.Warnings, "\n")
	for _, s := range []string{
		"table 1: 1 hidden row(s) (3) and 1 hidden column(s) (B) landed as the other cells (LibreOffice does not show them)",
		`6 passage(s) of hidden text (178 characters; LibreOffice neither shows nor prints them`,
	} {
		if !strings.Contains(w, s) {
			t.Errorf("warnings %q lack %q", hidden.Warnings, s)
		}
	}

	odp := open("hidden.odp")
	if got, want := categorisedTexts(odp), []string{"NarrativeText: Agenda", "NarrativeText: Backup numbers only", "NarrativeText: Thanks"}; !reflect.DeepEqual(got, want) || odp.Elements[1].Page != 2 {
		t.Errorf("odp elements %q", got)
	}
	if odp.Metadata.Extra["hidden_slides"] != "2" || len(odp.Warnings) != 1 || !strings.Contains(odp.Warnings[0], "slide 2 is hidden (not shown in a slide show)") {
		t.Errorf("odp: warnings %q metadata %v", odp.Warnings, odp.Metadata.Extra)
	}
}

// TestODFConditionalSectionIsSaid (office/35): a section LibreOffice shows
// or hides by a condition (text:display="condition", text:condition on a
// field's value) lands as shown, as before, and is said: a warning naming
// the section and its condition, metadata conditional_sections. Before,
// nothing said that LibreOffice may hide it. A section shown outright
// (display="true") says nothing. Fixture by odfpy (testdata/odfhidden/gen.py).
func TestODFConditionalSectionIsSaid(t *testing.T) {
	res, err := ExtractODT(context.Background(), filepath.Join("testdata", "odfhidden", "conditional.odt"), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Title: Offer",
		"NarrativeText: Price per tonne: 12 EUR.",
		"NarrativeText: Gold customers receive a 10 percent discount.",
		"NarrativeText: Valid until 30 June.",
	}
	if got := categorisedTexts(res); !reflect.DeepEqual(got, want) {
		t.Errorf("elements %q, want %q", got, want)
	}
	w := strings.Join(res.Warnings, "\n")
	if !strings.Contains(w, `1 section(s) shown or hidden by a condition`) || !strings.Contains(w, `"DiscountClause" (ooow:Customer == "gold")`) {
		t.Errorf("warnings %q", res.Warnings)
	}
	if got := res.Metadata.Extra["conditional_sections"]; got != `"DiscountClause" (ooow:Customer == "gold")` {
		t.Errorf("conditional_sections %q", got)
	}
}
