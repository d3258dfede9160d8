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

// TestMailHoldingLaTeXIsMail: a message whose text part (or attachment, not
// base64-encoded) holds a LaTeX document is a message: the mail header
// block wins over "\begin{document}" in its first 4 KB. It was detected
// as LaTeX, and the whole message, headers and boundaries, landed as a
// LaTeX document's text.
func TestMailHoldingLaTeXIsMail(t *testing.T) {
	eml := "MIME-Version: 1.0\r\nFrom: a@example.org\r\nSubject: Report\r\nContent-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nThe report is attached.\r\n--B\r\n" +
		"Content-Type: text/x-tex; name=\"main.tex\"\r\nContent-Disposition: attachment; filename=\"main.tex\"\r\n\r\n\\documentclass{article}\r\n\\begin{document}\r\nThe harbour report.\r\n\\end{document}\r\n--B--\r\n"
	for _, name := range []string{"mail.eml", "mail"} {
		if info, err := DetectBytes(name, []byte(eml)); err != nil || info.Type != EML {
			t.Errorf("%s: detected %q (%v), want eml", name, info.Type, err)
		}
	}
	tex := "\\documentclass{article}\n\\begin{document}\nFrom: the harbour master\n\\end{document}\n"
	if info, _ := DetectBytes("main.tex", []byte(tex)); info.Type != LaTeX {
		t.Errorf("a LaTeX document detected %q", info.Type)
	}
}
