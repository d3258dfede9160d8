package textproc

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// TextStats are the figures the quality verdicts are computed from.
type TextStats struct {
	Chars              int     // code points
	NonWhitespaceRatio float64 // non-whitespace code points / Chars
	Lines              int     // non-empty (after trimming) lines
	UniqueLineRatio    float64 // distinct trimmed non-empty lines / Lines
	Words              int     // whitespace-separated words
	StopWordCount      int     // words (lower-cased, punctuation trimmed) in the stop word set
	MeanWordLength     float64 // mean code points per word
	SymbolRatio        float64 // non-letter, non-digit, non-space code points / non-space code points
	DupNgramShare      float64 // share of word 5-gram occurrences that repeat an earlier one
}

// dupNgramN is the n of DupNgramShare (Gopher's duplicate n-gram fraction
// uses 5..10; docket reports the 5-gram one).
const dupNgramN = 5

// Stats computes TextStats of text as given (not normalized). stopwords
// holds lower-case words; nil counts none. Empty text gives zero ratios,
// except UniqueLineRatio, which is 1 when there is no line.
func Stats(text string, stopwords map[string]bool) TextStats {
	var st TextStats
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	nonSpace, symbols := 0, 0
	for _, r := range text {
		st.Chars++
		if unicode.IsSpace(r) {
			continue
		}
		nonSpace++
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
			symbols++
		}
	}
	if st.Chars > 0 {
		st.NonWhitespaceRatio = float64(nonSpace) / float64(st.Chars)
	}
	if nonSpace > 0 {
		st.SymbolRatio = float64(symbols) / float64(nonSpace)
	}

	distinct := map[string]struct{}{}
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		st.Lines++
		distinct[line] = struct{}{}
	}
	st.UniqueLineRatio = 1
	if st.Lines > 0 {
		st.UniqueLineRatio = float64(len(distinct)) / float64(st.Lines)
	}

	words := strings.Fields(text)
	st.Words = len(words)
	totalLen := 0
	for _, w := range words {
		totalLen += utf8.RuneCountInString(w)
		if stopwords != nil {
			key := strings.ToLower(strings.TrimFunc(w, func(r rune) bool {
				return !unicode.IsLetter(r) && !unicode.IsDigit(r)
			}))
			if key != "" && stopwords[key] {
				st.StopWordCount++
			}
		}
	}
	if st.Words > 0 {
		st.MeanWordLength = float64(totalLen) / float64(st.Words)
	}
	st.DupNgramShare = dupNgramShare(words, dupNgramN)
	return st
}

// dupNgramShare returns the share of n-gram occurrences that repeat an
// n-gram seen earlier in the text (0 when there are none).
func dupNgramShare(words []string, n int) float64 {
	total := len(words) - n + 1
	if total <= 0 {
		return 0
	}
	seen := make(map[string]struct{}, total)
	dup := 0
	var b strings.Builder
	for i := 0; i < total; i++ {
		b.Reset()
		for j, w := range words[i : i+n] {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strings.ToLower(w))
		}
		key := b.String()
		if _, ok := seen[key]; ok {
			dup++
		} else {
			seen[key] = struct{}{}
		}
	}
	return float64(dup) / float64(total)
}
