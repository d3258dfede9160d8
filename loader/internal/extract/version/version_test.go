package version

import "testing"

func TestCurrent(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{"", true},
		{PDF + "+" + MuPDF, true},
		{Join(PDF, MuPDF, OCR), true},
		{Image, true},
		{"pdf-mupdf1.24.9-v4", false}, // before components
		{"pdf/4+" + MuPDF, false},
		{Join(PDF, "mupdf/1.23.0"), false},
		{Join(Image, "ocr/1"), false},
		{"image/1", false},
	} {
		if got := Current(tc.v); got != tc.want {
			t.Errorf("Current(%q) = %v", tc.v, got)
		}
	}
	if got := With(With(PDF, OCR), OCR); got != PDF+"+"+OCR {
		t.Errorf("With twice: %q", got)
	}
	if got := With("", OCR); got != OCR {
		t.Errorf("With on empty: %q", got)
	}
}
