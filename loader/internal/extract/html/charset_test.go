package html

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

// TestUndeclaredCentralEuropeanPage: a Polish, Czech or Slovak page saved
// without a charset (no <meta>, no BOM, no HTTP header) lands as written:
// its bytes are judged as a text file's are (detect.GuessTextCharset,
// text/17). Before html/39 chardet's guess alone decided: a short Polish
// page in Windows-1250 landed "Œciœle tajne: Ÿród³o w £odzi.", one whose
// only letter apart is "ą" "Zarzšd", a Czech one in ISO-8859-2 "Pøíli¹
// ¾lu»ouèký kùò"; a Western page stays windows-1252.
func TestUndeclaredCentralEuropeanPage(t *testing.T) {
	cases := []struct {
		title, body string
		cm          *charmap.Charmap
	}{
		{"Notatka", "Ściśle tajne: źródło w Łodzi.", charmap.Windows1250},
		{"Notatka", "Ściśle tajne: źródło w Łodzi.", charmap.ISO8859_2},
		{"Protokół", "Zarząd omówił stan nabrzeża nr 4 oraz harmonogram prac pogłębiarskich.", charmap.Windows1250},
		{"Zápis", "Příliš žluťoučký kůň úpěl ďábelské ódy.", charmap.ISO8859_2},
		{"Zápis", "Příliš žluťoučký kůň úpěl ďábelské ódy.", charmap.Windows1250},
		{"Správa", "Šľachetný kôň sa ťahal po ľadovej ceste.", charmap.Windows1250},
		{"Správa", "Šľachetný kôň sa ťahal po ľadovej ceste.", charmap.ISO8859_2},
		{"Zápis", "Události v Česku", charmap.Windows1250},
		{"Grüße", "Schöne Grüße aus Köln und München, »sagte« sie; 10 m³ Kies für Ihr Haus.", charmap.Windows1252},
	}
	for _, c := range cases {
		page := "<html><head><title>" + c.title + "</title></head><body><h1>" + c.title + "</h1><p>" + c.body + "</p></body></html>\n"
		data, err := c.cm.NewEncoder().Bytes([]byte(page))
		if err != nil {
			t.Fatal(err)
		}
		res := extractData(t, "page.html", data)
		var text strings.Builder
		for _, p := range res.Pages {
			text.WriteString(p.Text)
		}
		if got := text.String(); !strings.Contains(got, c.body) || res.Metadata.Title != c.title {
			t.Errorf("%s: %q (title %q, encoding %q), want %q", c.cm, got, res.Metadata.Title, res.Metadata.Extra["encoding"], c.body)
		}
	}
}
