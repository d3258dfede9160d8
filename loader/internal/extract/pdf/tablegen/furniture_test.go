package tablegen

import (
	"regexp"
	"strings"
	"testing"
)

// copied are the forms v5-v7 had taken from one visible document (its
// footer's catalogue number and note, its exhibit line, its description
// head, its "blank" value).
var copied = []string{"Cat. No.", "Official Use", "Any line marked", "Exhibit", "(Cont.", "Description and validity",
	"DESCRIPTION AND VALIDITY", "(blank =", "(blank -", "(blank:"}

// TestNoCopiedWording: no page of the layouts that draw page furniture or
// value lines shows any of those forms.
func TestNoCopiedWording(t *testing.T) {
	for _, layout := range []string{"footer", "runhead", "sublines"} {
		for seed := uint64(1); seed <= 40; seed++ {
			d, err := GenerateLayout(seed, layout)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range copied {
				if strings.Contains(string(d.PDF), c) {
					t.Errorf("%s seed %d shows %q", layout, seed, c)
				}
			}
		}
	}
}

// TestFurnitureForms: the footers and running heads come in several forms
// (their words with the numbers taken out), at least four per layout in
// 40 pages, and every part the page shows is in Doc.Furniture.
func TestFurnitureForms(t *testing.T) {
	digits := regexp.MustCompile(`\d+`)
	for _, layout := range []string{"footer", "runhead"} {
		forms := map[string]bool{}
		for seed := uint64(1); seed <= 40; seed++ {
			d, err := GenerateLayout(seed, layout)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Furniture) == 0 {
				t.Fatalf("%s seed %d: no furniture", layout, seed)
			}
			for _, m := range d.Furniture {
				if f := strings.Fields(digits.ReplaceAllString(m.Text, "N")); len(f) > 0 && digits.MatchString(m.Text) {
					forms[f[0]] = true
				}
			}
		}
		if len(forms) < 4 {
			t.Errorf("%s: %d forms of numbered furniture in 40 pages (%v), want 4 or more", layout, len(forms), forms)
		}
	}
}
