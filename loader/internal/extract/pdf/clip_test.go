package pdf

import (
	"slices"
	"strings"
	"testing"
)

// clippedPage returns the lines and words of page 1 of a PDF of one page
// whose content is draw (raw operators, PDF space).
func clippedPage(t *testing.T, draw ...string) (lines []string, words []string) {
	t.Helper()
	d, err := Open(writePDF(t, []pg{{Draw: draw}}))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	l, err := d.Page(1, Words)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range l.Blocks {
		for _, ln := range b.Lines {
			lines = append(lines, ln.Text)
			for _, w := range ln.Words {
				words = append(words, w.Text)
			}
		}
	}
	return lines, words
}

// A spreadsheet printout draws each cell's text inside a clip of the
// cell's box: a name longer than its cell is cut at the cell's edge, and
// the next cell's text is drawn right after that edge. What the clip
// hides is not read, and the cut name does not run into the next cell
// (tabula's schools.pdf: "Matthew C. & Elizab2165 Princeton Ave").
func TestClipHidesOverflowingCellText(t *testing.T) {
	lines, words := clippedPage(t,
		// the cell is 60pt wide: "Matthew C. " fits, "&" (155.4-162.0) is
		// cut at 160, "Elizabeth" is hidden
		"q 100 680 60 14 re W n BT /F1 10 Tf 102 684 Td (Matthew C. & Elizabeth) Tj ET Q",
		"BT /F1 10 Tf 162 684 Td (2165 Princeton Ave) Tj ET")
	text := strings.Join(lines, "\n")
	if strings.Contains(text, "Eliz") || strings.Contains(text, "beth") {
		t.Errorf("text hidden by the clip was read: %q", text)
	}
	if !strings.Contains(text, "Matthew C. &") || !strings.Contains(text, "2165 Princeton Ave") {
		t.Errorf("text a reader sees was lost: %q", text)
	}
	if !slices.Contains(words, "2165") || !slices.Contains(words, "&") {
		t.Errorf("the cut cell's text runs into the next cell's: words %q", words)
	}
}

// The schools printout's own shape: the cell's text is drawn whole but
// its last glyph, which is drawn alone inside the cell's clip and cut by
// it, and the next cell's text starts right after that glyph's box.
func TestClipCutGlyphEndsItsCell(t *testing.T) {
	// "Matthew C. & Eliza" ends at 186.5; the "b" (186.5-192.0) is cut at
	// the cell's edge, 190.6; "2165" starts at 192.6
	lines, words := clippedPage(t,
		"BT /F1 10 Tf 102 684 Td (Matthew C. & Eliza) Tj ET",
		"q 100 680 90.6 14 re W n BT /F1 10 Tf 186.47 684 Td (b) Tj ET Q",
		"BT /F1 10 Tf 192.6 684 Td (2165 Princeton Ave) Tj ET")
	if !slices.Contains(words, "Elizab") || !slices.Contains(words, "2165") {
		t.Errorf("the cut cell's text runs into the next cell's: lines %q, words %q", lines, words)
	}
}

// Layout programs clip a frame's text to a box drawn tight around it, so
// a glyph's box often overhangs the clip by a little of its side
// bearing, and a line of text can be drawn in two frames side by side
// ("UE 8" on a shaded box, "." after it). That is no cell edge: the word
// stays one.
func TestTightClipKeepsWordWhole(t *testing.T) {
	// "UE 8" at 13pt ends at 128.9 (the "8" from 121.7); its clip ends
	// 0.4pt short of that; the "." is drawn in a clip that starts 0.6pt
	// into its box
	lines, words := clippedPage(t,
		"q 99.5 680 29 16 re W n BT /F1 13 Tf 100 684 Td (UE 8) Tj ET Q",
		"q 129.5 680 40 16 re W n BT /F1 13 Tf 128.9 684 Td (.) Tj ET Q")
	if got := strings.Join(lines, "|"); got != "UE 8." {
		t.Errorf("lines %q, want \"UE 8.\"", got)
	}
	if !slices.Contains(words, "8.") {
		t.Errorf("words %q, want \"8.\" whole", words)
	}
}

// What the clip hides is left out of the text, but not silently: the
// page counts the characters it hid (spaces left out), and the result's
// page carries the count (staging.pages.text_layer_clipped). The text is
// the same as without the count.
func TestClipHiddenCharsCounted(t *testing.T) {
	draw := []string{
		// "Elizabeth" (9 letters) is hidden, "&" is cut but shows
		"q 100 680 60 14 re W n BT /F1 10 Tf 102 684 Td (Matthew C. & Elizabeth) Tj ET Q",
		"BT /F1 10 Tf 162 684 Td (2165 Princeton Ave) Tj ET",
		// a copy drawn wholly outside its clip: 3 letters and a space
		"q 300 600 50 14 re W n BT /F1 10 Tf 300 400 Td (old x) Tj ET Q",
	}
	path := writePDF(t, []pg{{Draw: draw}, {Draw: []string{"BT /F1 10 Tf 72 700 Td (Nothing clipped on this page at all.) Tj ET"}}})
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	l, err := d.Page(1, Words)
	d.Close()
	if err != nil {
		t.Fatal(err)
	}
	if l.ClipHidden != 13 {
		t.Errorf("Layout.ClipHidden %d, want 13 (Elizabeth, old, x)", l.ClipHidden)
	}
	res, err := Extract(t.Context(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pages) != 2 || res.Pages[0].ClippedChars != 13 || res.Pages[1].ClippedChars != 0 {
		t.Fatalf("pages' ClippedChars: %+v", res.Pages)
	}
	if strings.Contains(res.Pages[0].Text, "Eliz") || strings.Contains(res.Pages[0].Text, "old") {
		t.Errorf("hidden text read: %q", res.Pages[0].Text)
	}
}
