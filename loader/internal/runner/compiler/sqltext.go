package compiler

import (
	"regexp"
	"strconv"
	"strings"
)

// stripSQL blanks out string literals, quoted identifiers and comments so
// word searches only see code.
func stripSQL(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '\'' || b[i] == '"':
			q := b[i]
			for i++; i < len(b); i++ {
				if b[i] == q {
					if i+1 < len(b) && b[i+1] == q {
						b[i], b[i+1] = ' ', ' '
						i++
						continue
					}
					break
				}
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
		case b[i] == '-' && i+1 < len(b) && b[i+1] == '-':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			for ; i < len(b); i++ {
				if b[i] == '*' && i+1 < len(b) && b[i+1] == '/' {
					b[i], b[i+1] = ' ', ' '
					i++
					break
				}
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
		}
	}
	return string(b)
}

// UDFCalled returns the first registered Go UDF the SQL calls, or "".
func (m *Manifest) UDFCalled(sql string) string {
	code := strings.ToLower(stripSQL(sql))
	for _, u := range m.UDFs {
		re := regexp.MustCompile(`(^|[^a-z0-9_."])` + regexp.QuoteMeta(strings.ToLower(u.Name)) + `\s*\(`)
		if re.MatchString(code) {
			return u.Name
		}
	}
	return ""
}

var duckLineRe = regexp.MustCompile(`(?m)^LINE (\d+): (.*)$`)

// SQLDiagnostic turns a DuckDB error on stmt into a position in the
// compiled body (stmt minus prefixLines leading lines) and a one-line message.
func SQLDiagnostic(msg, stmt string, prefixLines int) Diagnostic {
	d := Diagnostic{Line: 1, Col: 1, Msg: FirstLine(msg)}
	sm := duckLineRe.FindStringSubmatchIndex(msg)
	if sm == nil {
		return d
	}
	ln, _ := strconv.Atoi(msg[sm[2]:sm[3]])
	excerpt := msg[sm[4]:sm[5]]
	prefixLen := sm[4] - sm[0]
	caret := -1
	if rest := msg[sm[1]:]; strings.HasPrefix(rest, "\n") {
		next := rest[1:]
		if i := strings.IndexByte(next, '\n'); i >= 0 {
			next = next[:i]
		}
		caret = strings.IndexByte(next, '^')
	}
	lines := strings.Split(stmt, "\n")
	col := 1
	if ln >= 1 && ln <= len(lines) && caret >= 0 {
		src := lines[ln-1]
		left := 0
		ex := excerpt
		if strings.HasPrefix(ex, "...") {
			left = 3
			ex = ex[3:]
		}
		ex = strings.TrimSuffix(ex, "...")
		at := caret - prefixLen - left
		if i := strings.Index(src, ex); i >= 0 && at >= 0 {
			col = i + at + 1
		} else if at >= 0 {
			col = at + 1
		}
	}
	d.Line = ln - prefixLines
	if d.Line < 1 {
		d.Line, col = 1, 1
	}
	d.Col = col
	return d
}
