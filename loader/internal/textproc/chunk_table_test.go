package textproc

import (
	"strings"
	"testing"
)

func TestChunkTableWholeRows(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		b.WriteString("Acme Ltd. 2025 ")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(" 12.50 EUR\n")
	}
	text := b.String()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	cs := ChunkTable(text, 100)
	norms := checkChunks(t, text, 100, 0, nil, cs)
	if len(cs) < 2 {
		t.Fatalf("40 rows in one chunk of 100: %d chunks", len(cs))
	}
	rows := 0
	for i, c := range cs {
		if c.Start > 0 && text[c.Start-1] != '\n' || c.End < len(text) && text[c.End] != '\n' {
			t.Fatalf("chunk %d [%d,%d) cuts a row: %q", i, c.Start, c.End, c.Text)
		}
		if i > 0 && c.Start < cs[i-1].End {
			t.Fatalf("chunk %d overlaps the one before", i)
		}
		rows += strings.Count(c.Text, "\n") + 1
		// packed: the next row would not have fitted
		if i+1 < len(cs) {
			next := lines[rows]
			if l := len([]rune(norms[i])) + 1 + len([]rune(NormalizeText(next))); l <= 100 {
				t.Fatalf("chunk %d ends at %d characters though the next row (%q) fits", i, len([]rune(norms[i])), next)
			}
		}
	}
	if rows != len(lines) {
		t.Fatalf("%d rows in chunks, %d in the table", rows, len(lines))
	}
}

func TestChunkTableLongRowAndSentences(t *testing.T) {
	// ChunkText would cut this table's first row after "Ltd." (a sentence
	// end); a table is cut only between rows.
	text := "Supplier Ltd. Invoice 12 Total 40.00\nOther Corp. Invoice 13 Total 9.00"
	cs := ChunkTable(text, 40)
	checkChunks(t, text, 40, 0, nil, cs)
	if len(cs) != 2 || cs[0].Text != "Supplier Ltd. Invoice 12 Total 40.00" {
		t.Fatalf("rows not kept whole: %+v", cs)
	}
	// a row over size alone is cut between words, never inside one
	long := strings.Repeat("cell ", 30) + "\nshort row"
	cs = ChunkTable(long, 40)
	checkChunks(t, long, 40, 0, nil, cs)
	if last := cs[len(cs)-1]; last.Text != "short row" {
		t.Fatalf("the row after a long one is not a chunk of its own: %q", last.Text)
	}
	for _, c := range cs {
		if strings.Contains(c.Text, "cel\n") || strings.HasPrefix(c.Text, "ell") {
			t.Fatalf("a word was cut: %q", c.Text)
		}
	}
	if ChunkTable("", 40) != nil || len(ChunkTable(" \n\t\n", 40)) != 0 {
		t.Fatal("an empty table gave chunks")
	}
}
