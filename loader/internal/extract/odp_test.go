package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/worker"
)

// odpFixture is an ODP as odfpy writes one: two slides, the first with a
// list, a group holding a nested group, a custom shape and speaker notes.
func odpFixture(t *testing.T) []byte {
	ns := `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"`
	frame := func(s string) string {
		return `<draw:frame svg:x="1cm"><draw:text-box><text:p>` + s + `</text:p></draw:text-box></draw:frame>`
	}
	content := `<office:document-content ` + ns + `><office:body><office:presentation>` +
		`<draw:page draw:name="Slide1">` + frame("Harbour Expansion") +
		`<draw:frame><draw:text-box><text:list><text:list-item><text:p>Dredging starts in May</text:p></text:list-item></text:list></draw:text-box></draw:frame>` +
		`<draw:g>` + frame("Grouped label one") + `<draw:g>` + frame("Nested group label") + `</draw:g></draw:g>` +
		`<draw:custom-shape><text:p>Text in a custom shape</text:p></draw:custom-shape>` +
		`<presentation:notes>` + frame("Speaker notes: thank the port authority.") + `</presentation:notes></draw:page>` +
		`<draw:page draw:name="Slide2">` + frame("Second slide text") + `</draw:page>` +
		`</office:presentation></office:body></office:document-content>`
	return zipOf(t, "mimetype", "application/vnd.oasis.opendocument.presentation", "content.xml", content)
}

// TestODPIsExtracted: an ODP lands its slides as pages, grouped shapes,
// custom shapes and speaker notes included. Before, Route said "no
// extractor for type odp yet" and the presentation was quarantined.
func TestODPIsExtracted(t *testing.T) {
	p := filepath.Join(t.TempDir(), "deck.odp")
	if err := os.WriteFile(p, odpFixture(t), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := detect.Detect(p)
	if err != nil || info.Type != detect.ODP {
		t.Fatalf("detected %+v, %v", info, err)
	}
	res, err := Route(context.Background(), worker.Request{Path: p, Name: "deck.odp", Type: info.Type, MIME: info.MIME})
	if err != nil {
		t.Fatal(err)
	}
	checkElements(t, res)
	if res.Type != detect.ODP || len(res.Pages) != 2 {
		t.Fatalf("type %q, %d pages", res.Type, len(res.Pages))
	}
	for _, w := range []string{"Harbour Expansion", "Dredging starts in May", "Grouped label one", "Nested group label", "Text in a custom shape", "Speaker notes: thank the port authority."} {
		if !strings.Contains(res.Pages[0].Text, w) {
			t.Errorf("slide 1 lacks %q:\n%s", w, res.Pages[0].Text)
		}
	}
	if res.Pages[1].Text != "Second slide text" {
		t.Errorf("slide 2 %q", res.Pages[1].Text)
	}
	if hasReview(res, document.ReviewTruncated) {
		t.Errorf("reviews %v", res.AllReviews())
	}
}
