package table

import (
	"path/filepath"
	"testing"
)

// TestRowsCutUnderHeadPhrases: a head and one row whose cells a browser
// sets a padding apart (5pt, under the gap that parts phrases) reads the
// row as one phrase ("27 April Workshop A 09:00"); the head's phrases
// stand apart ("Date  Session  Time"), and the row has a word starting
// where each head phrase starts: it is cut there (markHeadStarts). A
// table floated right of a paragraph, its head on the paragraph's line,
// and one set alone between paragraphs (the .html beside each .pdf,
// printed with chromium --headless --no-pdf-header-footer
// --print-to-pdf; surround tune kd-5144). The floated one fails on
// pdf/139 (no table); the one set alone is found before and after (the
// head-and-row reader cuts its row at the head's columns).
func TestRowsCutUnderHeadPhrases(t *testing.T) {
	fileTable(t, "headstarts-float-lbs.pdf", [][]string{{"Date", "Session", "Time"}, {"27 April", "Workshop A", "09:00"}})
	fileTable(t, "headstarts-alone-djs.pdf", [][]string{{"Site", "Contact", "Room"}, {"Harbour office", "Anna Berg", "Hall B"}})
}

// TestHeadingOfTwoPhrasesOverTextNoTable: a heading set in two phrases
// ("Programme  spring", word-spaced wide) over running text is no table:
// the paragraph's lines start no word under the heading's second phrase.
// Passes before and after.
func TestHeadingOfTwoPhrasesOverTextNoTable(t *testing.T) {
	if ts := detectFile(t, filepath.Join("testdata", "headstarts-heading-lbs.pdf")); len(ts) != 0 {
		t.Errorf("want no table, got %s", dump(ts))
	}
}
