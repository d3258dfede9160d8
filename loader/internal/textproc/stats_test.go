package textproc

import (
	"math"
	"strings"
	"testing"
)

func TestStats(t *testing.T) {
	stop := map[string]bool{"the": true, "a": true, "of": true}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	tests := []struct {
		name string
		text string
		want TextStats
	}{
		{"empty", "", TextStats{UniqueLineRatio: 1}},
		{"simple", "The cat, of course.", TextStats{
			Chars: 19, NonWhitespaceRatio: 16.0 / 19, Lines: 1, UniqueLineRatio: 1, Words: 4,
			StopWordCount: 2, MeanWordLength: 16.0 / 4, SymbolRatio: 2.0 / 16,
		}},
		{"repeated lines", "menu\nmenu\n\n  menu \nbody text\n", TextStats{
			Chars: 29, NonWhitespaceRatio: 20.0 / 29, Lines: 4, UniqueLineRatio: 2.0 / 4, Words: 5,
			MeanWordLength: 4, SymbolRatio: 0,
		}},
		{"whitespace heavy", "a   \n\n\n\t\t b", TextStats{
			Chars: 11, NonWhitespaceRatio: 2.0 / 11, Lines: 2, UniqueLineRatio: 1, Words: 2,
			StopWordCount: 1, MeanWordLength: 1,
		}},
		{"duplicate 5-grams", strings.Repeat("one two three four five ", 3), TextStats{
			Chars: 72, NonWhitespaceRatio: 57.0 / 72, Lines: 1, UniqueLineRatio: 1, Words: 15,
			MeanWordLength: 57.0 / 15, DupNgramShare: 6.0 / 11,
		}},
		{"unicode", "naïve café ☺", TextStats{
			Chars: 12, NonWhitespaceRatio: 10.0 / 12, Lines: 1, UniqueLineRatio: 1, Words: 3,
			MeanWordLength: 10.0 / 3, SymbolRatio: 1.0 / 10,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, w := Stats(tt.text, stop), tt.want
			if g.Chars != w.Chars || g.Lines != w.Lines || g.Words != w.Words || g.StopWordCount != w.StopWordCount ||
				!near(g.NonWhitespaceRatio, w.NonWhitespaceRatio) || !near(g.UniqueLineRatio, w.UniqueLineRatio) ||
				!near(g.MeanWordLength, w.MeanWordLength) || !near(g.SymbolRatio, w.SymbolRatio) ||
				!near(g.DupNgramShare, w.DupNgramShare) {
				t.Fatalf("Stats(%q)\n got %+v\nwant %+v", tt.text, g, w)
			}
		})
	}
}
