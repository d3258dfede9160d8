package table

import (
	"path/filepath"
	"testing"
)

// A head and one row that say table by what stands with them: a
// "Table N" caption right under them (a browser's caption-side: bottom)
// or over them, for two columns of words with no value; a rule under a
// head whose words stand too close to split into phrases (a th's
// border-bottom, "Events Income" over "47  £173,423"). Before, each was
// not found: too small for a run's evidence, and headAndRow asks a value
// of two columns and heads it can cut into phrases. (surround-5138 and
// -5184 are the eval's surround pages of those seeds, tune half.)
func TestHeadAndOneRowSaidByCaptionOrRule(t *testing.T) {
	for _, c := range []struct {
		file  string
		cells [][]string
	}{
		{"onerow-capunder.pdf", [][]string{{"Country", "Capital"}, {"Ghana", "Accra"}}},
		{"onerow-capover.pdf", [][]string{{"Office", "Contact"}, {"Harbour", "J. Meyer"}}},
		{"surround-5138.pdf", [][]string{{"Country", "Capital"}, {"Ghana", "Oslo"}}},
		{"surround-5184.pdf", [][]string{{"Events", "Income"}, {"47", "£173,423"}}},
	} {
		ts := detectFile(t, filepath.Join("testdata", c.file))
		if len(ts) != 1 {
			t.Errorf("%s: %d tables, want 1", c.file, len(ts))
			continue
		}
		got := cellsOf(ts[0])
		if len(got) != len(c.cells) {
			t.Errorf("%s: rows %q, want %q", c.file, got, c.cells)
			continue
		}
		for r := range got {
			if !equalRow(got[r], c.cells[r]) {
				t.Errorf("%s row %d: got %q, want %q", c.file, r, got[r], c.cells[r])
			}
		}
	}
}

// Without a caption or a rule, two lines of two words each lined up stay
// text (the same head and row as onerow-capunder, its caption left out);
// a form's labels over what was written in ("Name  Signature" over
// "J. Meyer  Approved") and a heading underlined by a rule over a line of
// two phrases are no tables either.
func TestHeadAndOneRowUnsaidStayText(t *testing.T) {
	for _, f := range []string{"onerow-nocap.pdf", "onerow-form.pdf", "onerow-ruledheading.pdf"} {
		if ts := detectFile(t, filepath.Join("testdata", f)); len(ts) != 0 {
			for _, tb := range ts {
				t.Logf("%s: %q", f, cellsOf(tb))
			}
			t.Errorf("%s: %d tables, want none", f, len(ts))
		}
	}
}
