package html

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"golang.org/x/text/encoding/charmap"
)

// TestMixedEncodingPage: a page declared Windows-1252 whose first
// paragraphs were pasted in UTF-8 reads each line in its own encoding
// (text/10's decoding, html/37), said in a warning; the UTF-8 paragraphs
// landed as "CafÃ© crÃ¨me".
func TestMixedEncodingPage(t *testing.T) {
	utf := "<p>Café menu: crème brûlée and naïve tarts, déjà vu, served daily.</p>\n"
	plain := "<p>Second part: café, crème brûlée, façade and jalapeño on Sundays.</p>\n"
	latin, err := charmap.Windows1252.NewEncoder().String(strings.Repeat(plain, 4))
	if err != nil {
		t.Fatal(err)
	}
	page := "<html><head><meta charset=\"windows-1252\"><title>Menu</title></head><body>\n" + strings.Repeat(utf, 4) + latin + "</body></html>\n"
	info, _ := detect.DetectBytes("menu.html", []byte(page))
	res, err := ExtractBytes(context.Background(), []byte(page), info, document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, p := range res.Pages {
		text.WriteString(p.Text)
	}
	if got := text.String(); strings.Count(got, "Café menu: crème brûlée") != 4 || strings.Count(got, "façade and jalapeño") != 4 {
		t.Errorf("text %q", got)
	}
	if w := strings.Join(res.Warnings, " "); !strings.Contains(w, "mixed encodings") {
		t.Errorf("warnings %q", w)
	}
}
