package table

// phraseGap is the unruled reader's least gap between two phrases of a
// line (its columns' gap): 0.9 of the text's size, 5pt at least.
func phraseGap(size float64) float64 { return max(5, 0.9*size) }

// gridGap is the grid's least gap between two columns, a cell's padding
// (a browser's 8px leaves ~6pt): 0.55 of the text's size, 4pt at least.
func gridGap(size float64) float64 { return max(4, 0.55*size) }
