package text

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/text/encoding/charmap"

	"github.com/docket-dev/docket/loader/internal/detect"
)

// TestCentralEuropeanShortTexts: short Polish, Czech and Slovak texts in
// Windows-1250 or ISO-8859-2 land as written (detect.GuessTextCharset);
// before, chardet's guess read them as windows-1252 ("Œciœle tajne:
// Ÿród³o w £odzi.", "Fina³ pucharu") or as the other Central European
// charset ("Zarzšd omówił"). Western texts whose signs touch letters
// (»quotes«, ¿Qué?, Windows®, m³, x¹ + y³ = z²) stay windows-1252.
func TestCentralEuropeanShortTexts(t *testing.T) {
	decodeCases(t, []charsetCase{
		{"Ściśle tajne: źródło w Łodzi.", charmap.Windows1250},
		{"Ściśle tajne: źródło w Łodzi.", charmap.ISO8859_2},
		{"Zarząd omówił stan nabrzeża nr 4 oraz harmonogram prac pogłębiarskich.", charmap.Windows1250},
		{"Proszę o przesłanie faktury do końca miesiąca.", charmap.Windows1250},
		{"Finał pucharu i nowy kanał", charmap.Windows1250},
		{"Książka kucharska", charmap.ISO8859_2},
		{"Šľachetný kôň sa ťahal po ľadovej ceste.", charmap.Windows1250},
		{"Příliš žluťoučký kůň úpěl ďábelské ódy. Ťažké časy, Štěpán, Žofie, Řehoř.", charmap.ISO8859_2},
		{"Bestellen Sie 10 m³ Kies für Ihr Haus.", charmap.Windows1252},
		{"Microsoft® Windows® für Büros und Ämter.", charmap.Windows1252},
		{"¿Qué tal? ¡Olé! Nº 5, 1ª edición, 2º piso.", charmap.Windows1252},
		{"»Die Zeit« schrieb über Köln.", charmap.Windows1252},
		{"«Très bien», dit-il à l'élève.", charmap.Windows1252},
		{"Größe: ¼ Zoll, ¾ Länge, ½ Preis; Temperatur ±5 °C; Absatz ¶3.", charmap.Windows1252},
		{"x¹ + y³ = z² in der Mathematik für Schüler.", charmap.Windows1252},
		{"col·lecció i l·lusió en català; L’été dernier, j’ai vu ‘Les Misérables’.", charmap.Windows1252},
	})
}

// TestCentralEuropeanLetterCues (text/19): short lines whose bytes alone
// do not tell their charset, told by their plain letters: a Polish line
// whose only letter apart is "ą" (0xB9, ISO-8859-2's "š") landed "Wyrok
// sšdu"; Hungarian's "ő" and "ű" landed "Gyõr", "fûszeres" (Windows-1252);
// Polish and Czech lines with no sign between letters landed Western
// ("Zapisz siê", "Èeská republika"); Czech and Slovak lines in ISO-8859-2
// whose signs stand at a word's start ("©koda", "»ahal", "µadovej")
// landed Western. French, Spanish, Portuguese, Faroese, Danish, Italian
// and Swedish lines holding the same letters stay windows-1252.
func TestCentralEuropeanLetterCues(t *testing.T) {
	decodeCases(t, []charsetCase{
		{"Wyrok sądu w sprawie działki", charmap.Windows1250},
		{"Wyrok sądu w sprawie", charmap.Windows1250},
		{"Gulasz wieprzowy z papryką", charmap.Windows1250},
		{"Győr-Moson-Sopron megye szőlőtermesztése", charmap.Windows1250},
		{"Győr-Moson-Sopron megye szőlőtermesztése", charmap.ISO8859_2},
		{"Egyszerű fűszeres leves", charmap.ISO8859_2},
		{"Zapisz się na listę", charmap.Windows1250},
		{"Dzień dobry, Poznań", charmap.Windows1250},
		{"Česká republika", charmap.Windows1250},
		{"Zahraniční ligy", charmap.ISO8859_2},
		{"Šťastná Škoda Žilina", charmap.ISO8859_2},
		{"Kôň sa ťahal po ľadovej ceste.", charmap.ISO8859_2},
		{"Sûreté et publicité foncière", charmap.Windows1252},
		{"The New York Times en Español", charmap.Windows1252},
		{"Informações e questões do exame", charmap.Windows1252},
		{"Eivør Pálsdóttir", charmap.Windows1252},
		{"Køb billetter til København", charmap.Windows1252},
		{"Perché è così difficile capire la città?", charmap.Windows1252},
		{"Han sa »Hej» och gick.", charmap.Windows1252},
		{"Dosis: 10 µg Vitamin, 5 µmol", charmap.Windows1252},
	})
}

type charsetCase struct {
	text string
	cm   *charmap.Charmap
}

// decodeCases writes each case's text in its charset to a file and checks
// that detection and Decode give the text back.
func decodeCases(t *testing.T, cases []charsetCase) {
	t.Helper()
	dir := t.TempDir()
	for i, c := range cases {
		data, err := c.cm.NewEncoder().Bytes([]byte(c.text + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "note"+string(rune('a'+i))+".txt")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		info, err := detect.Detect(p)
		if err != nil {
			t.Fatal(err)
		}
		s, used, _, err := Decode(data, info.Encoding)
		if err != nil || s != c.text+"\n" {
			t.Errorf("%s: decoded as %s (detected %s): %q, want %q (%v)", c.cm, used, info.Encoding, s, c.text, err)
		}
	}
}
