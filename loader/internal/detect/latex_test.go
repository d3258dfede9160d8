package detect

import (
	"regexp"
	"strings"
	"testing"
)

// TestLooksLaTeXMatchesRegexp: looksLaTeX answers as the regexp it
// replaced, after the leading comment lines, on the first 4 KB.
func TestLooksLaTeXMatchesRegexp(t *testing.T) {
	re := regexp.MustCompile(`^\\(documentclass|documentstyle)\b|\\begin\{document\}`)
	oracle := func(s string) bool {
		for strings.HasPrefix(s, "%") {
			_, rest, ok := strings.Cut(s, "\n")
			if !ok {
				return false
			}
			s = strings.TrimLeft(rest, " \t\r\n")
		}
		return re.MatchString(s[:min(len(s), 4096)])
	}
	pad := strings.Repeat("plain words ", 400) // 4,800 bytes
	cases := []string{
		"", `\documentclass`, `\documentclass[12pt]{article}`, `\documentclass{article}`, `\documentclassy`, `\documentclass_x`,
		`\documentclass9`, `\documentstyle{report}`, `\documentstyles`, " \\documentclass{article}", "% a comment\n\\documentclass{article}",
		"% a\n% b\n  \\documentstyle[11pt]{article}", "% only a comment", "text\n\\begin{document}\nbody", `\begin{documents}`,
		`\begin{Document}`, pad + `\begin{document}`, pad[:4000] + `\begin{document}`, pad[:4085] + `\begin{document}`,
		"\\documentclass\u00e9", "\\documentclass-x", "hello \\documentclass{article}",
	}
	for _, c := range cases {
		if got, want := looksLaTeX(c), oracle(c); got != want {
			t.Errorf("looksLaTeX(%.40q...) = %v, the regexp says %v", c, got, want)
		}
	}
}
