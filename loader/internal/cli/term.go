package cli

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode/utf8"
)

// termSafe escapes what a terminal would interpret rather than show: C0
// and C1 control characters (escape sequences start with ESC or CSI), DEL,
// line and paragraph separators, bidirectional overrides, and bytes that
// are not UTF-8. They come back as \n, \t, \x1b, \u202e, visible and
// unambiguous; everything else is unchanged. File names and document text
// are data from anyone, so every path, title and snippet the CLI prints
// goes through it.
func termSafe(s string) string {
	clean := true
	for i, r := range s {
		if r == utf8.RuneError || needsEscape(r) {
			if r == utf8.RuneError {
				if _, n := utf8.DecodeRuneInString(s[i:]); n == 3 {
					continue // a real U+FFFD
				}
			}
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && needsEscape(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case needsEscape(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// termSafeLines is termSafe line by line, for multi-line messages (DuckDB
// errors point at the query on a second line).
func termSafeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = termSafe(l)
	}
	return strings.Join(lines, "\n")
}

func needsEscape(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x2028, r == 0x2029, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

// lockDown turns off DuckDB's access to anything outside the open database
// (COPY TO/FROM, read_text/read_csv of files, ATTACH, INSTALL/LOAD of
// extensions, HTTP) and locks the configuration so a query cannot turn it
// back on. `docket sql` runs arbitrary text a user pasted; without
// --allow-external it can read the warehouse and nothing else.
func lockDown(ctx context.Context, c *sql.Conn) error {
	for _, q := range []string{`set enable_external_access = false`, `set lock_configuration = true`} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("restricting DuckDB (%s): %w", q, err)
		}
	}
	return nil
}
