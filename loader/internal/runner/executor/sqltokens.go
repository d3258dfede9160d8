package executor

import "strings"

// sqlToken is one token of a statement as DuckDB's lexer splits it, for
// the few rewrites the executor makes on names (infoschema.go).
type sqlToken struct {
	kind       tokKind
	start, end int
	text       string
}

type tokKind int

const (
	tokOther  tokKind = iota + 1
	tokIdent          // unquoted identifier or keyword
	tokQuoted         // "quoted identifier"
	tokDot
)

func (t sqlToken) isIdent() bool { return t.kind == tokIdent || t.kind == tokQuoted }

// name is the identifier as DuckDB compares it: case-insensitive, quoted
// or not.
func (t sqlToken) name() string {
	if t.kind == tokQuoted {
		return strings.ToLower(strings.ReplaceAll(t.text[1:len(t.text)-1], `""`, `"`))
	}
	return strings.ToLower(t.text)
}

// sqlTokens splits q into tokens, skipping blanks and comments; string
// literals are one tokOther token.
func sqlTokens(q string) []sqlToken {
	var out []sqlToken
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case strings.HasPrefix(q[i:], "--"):
			i = skipTo(q, i, "\n")
		case strings.HasPrefix(q[i:], "/*"):
			i = skipTo(q, i+2, "*/")
		case c == '\'' || c == '"':
			j := quotedEnd(q, i)
			k := tokOther
			if c == '"' {
				k = tokQuoted
			}
			out = append(out, sqlToken{kind: k, start: i, end: j, text: q[i:j]})
			i = j
		case c == '.':
			out = append(out, sqlToken{kind: tokDot, start: i, end: i + 1, text: "."})
			i++
		case identStart(c):
			j := i + 1
			for j < len(q) && (identStart(q[j]) || q[j] >= '0' && q[j] <= '9' || q[j] == '$') {
				j++
			}
			out = append(out, sqlToken{kind: tokIdent, start: i, end: j, text: q[i:j]})
			i = j
		default:
			out = append(out, sqlToken{kind: tokOther, start: i, end: i + 1, text: q[i : i+1]})
			i++
		}
	}
	return out
}

func identStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// skipTo returns the index just past the first end at or after i (or len(q)).
func skipTo(q string, i int, end string) int {
	if k := strings.Index(q[i:], end); k >= 0 {
		return i + k + len(end)
	}
	return len(q)
}

// quotedEnd returns the index just past the quote closing the one at i
// (a doubled quote is part of the text).
func quotedEnd(q string, i int) int {
	c := q[i]
	for j := i + 1; j < len(q); j++ {
		if q[j] == c {
			if j+1 < len(q) && q[j+1] == c {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(q)
}
