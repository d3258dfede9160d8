package textproc

import "testing"

func TestWordAgreement(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{
		{"", "", 1},
		{"one", "", 0},
		{"The harbour, the HARBOUR.", "the harbour the harbour", 1},
		// {a:1, b:2} against {b:1, c:1}: shared min(b)=1; union a1 + b2 + c1 = 4.
		{"a b b", "b c", 0.25},
		{"3.5 tonnes", "3 5 tonnes", 1},
	} {
		if got := WordAgreement(WordBag(c.a), WordBag(c.b)); got != c.want {
			t.Errorf("WordAgreement(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
