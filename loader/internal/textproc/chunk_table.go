package textproc

// ChunkTable splits a table's text into chunks of at most size characters
// of normalized text, with ChunkText's contract (offsets, exact Text, no
// empty chunk), cutting only between lines: a table's rows (or its lines,
// when a row spans several) are packed whole and greedily, blank lines
// first, and only a line longer than size alone is cut between words, as
// ChunkText cuts a long line. A table has no sentences (a cell ending in
// "Ltd." does not end one) and no overlap: every chunk is whole rows, and
// a row is in one chunk only.
func ChunkTable(text string, size int) []Chunk {
	if text == "" {
		return nil
	}
	c := chunker{rs: []rune(text), size: max(size, MinChunkSize), table: true}
	return c.segment(0, len(c.rs), nil)
}
