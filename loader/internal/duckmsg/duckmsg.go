// Package duckmsg reads DuckDB's error messages (pure text: it links no
// database, so the runner's compiler can use it).
package duckmsg

import (
	"regexp"
	"strings"
)

// ErrorLine is a DuckDB error message on one line: its first line, and
// when that line only announces what follows (it ends with ':', or is
// DuckDB's "CSV Error on Line: 3") the rest of its first paragraph too,
// joined with spaces, up to the "LINE n:" excerpt: "... install the
// required extension 'httpfs': Failed to download ...", "CSV Error on
// Line: 3 Original Line: x,3 Error when converting column "a". Could not
// convert string "x" to 'INTEGER'". It reads the shape of DuckDB's
// messages; the runner's diagnostics and the docs catalog both use it.
func ErrorLine(s string) string {
	first, rest, ok := strings.Cut(s, "\n")
	if !ok || !announces(first) {
		return first
	}
	parts := []string{strings.TrimSpace(first)}
	for _, l := range strings.Split(rest, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || excerptLine.MatchString(l) {
			break
		}
		parts = append(parts, l)
	}
	return strings.Join(parts, " ")
}

var (
	excerptLine    = regexp.MustCompile(`^LINE \d+: `)
	csvErrorLineRe = regexp.MustCompile(`Error on Line: \d+$`)
)

// announces: a first line that says its content comes on the next lines.
func announces(line string) bool {
	line = strings.TrimSpace(line)
	return strings.HasSuffix(line, ":") || csvErrorLineRe.MatchString(line)
}
