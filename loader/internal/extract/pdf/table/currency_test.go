package table

import (
	"path/filepath"
	"strings"
	"testing"
)

// An amount with a currency's code before or after it, a sign after it
// or a sign before its negative's parenthesis or minus is a number, to
// numeric and to numericCell (its words); letters and a number that are
// no amount are not.
func TestCurrencyAmounts(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"CHF 930,230.25", true}, {"12.50 EUR", true}, {"USD (1,200)", true}, {"1.234,56 €", true}, {"(589,992.56) €", true},
		{"1,234€", true}, {"£(94,133.45)", true}, {"$-1,407", true}, {"£−28.4", true}, {"€ 1,234", true}, {"$1,234", true},
		{"1,234", true}, {"HRB 48213", false}, {"ISO 9001", false}, {"ABC 12", false}, {"€", false}, {"CHF", false},
		{"EUR 12 pages", false}, {"Price €", false}, {"12 EURO", false}, {"£ sterling", false},
	} {
		if got := numeric(c.s); got != c.want {
			t.Errorf("numeric(%q) = %v, want %v", c.s, got, c.want)
		}
		var ws []*word
		for _, f := range strings.Fields(c.s) {
			ws = append(ws, &word{text: f})
		}
		if got := numericCell(ws); got != c.want {
			t.Errorf("numericCell(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// A browser-printed statement whose amounts all carry a currency code
// ("CHF 930,230.25", column rules only, no rule between rows: eval-tables'
// styles set, tune seed 7038) is found with its rows and columns; before,
// no column of it was numeric and the page's first table was missed.
func TestCurrencyCodeTable(t *testing.T) {
	ts := detectFile(t, filepath.Join("testdata", "styles-7038.pdf"))
	for _, tb := range ts {
		rows := cellsOf(tb)
		if len(rows) > 0 && strings.Join(rows[0], "|") == "|Budget and outturn|" {
			want := [][]string{{"", "2025", "2024"}, {"Rendering of services", "CHF 930,230.25", "CHF 2,217,150"},
				{"Gain on disposal of subsidiaries, net of cash disposed", "CHF 1,933,896", "CHF 592,562.23"},
				{"Employee benefit obligations", "CHF 920,409", "CHF 224,500"}}
			if len(rows) != 5 {
				t.Fatalf("rows %q", rows)
			}
			for i, w := range want {
				if strings.Join(rows[i+1], "|") != strings.Join(w, "|") {
					t.Errorf("row %d: %q, want %q", i+1, rows[i+1], w)
				}
			}
			return
		}
	}
	for _, tb := range ts {
		t.Logf("found %v: %q", tb.BBox, cellsOf(tb))
	}
	t.Fatal("the CHF statement was not found")
}
