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

// sqlTokens splits q into tokens, skipping blanks and comments (block
// comments nest, as in DuckDB's Postgres-derived lexer); string literals
// ('..', E'..' with backslash escapes, $$..$$ and $tag$..$tag$) are one
// tokOther token.
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
			i = commentEnd(q, i)
		case (c == 'e' || c == 'E') && i+1 < len(q) && q[i+1] == '\'' && (i == 0 || !identPart(q[i-1])):
			j := escapedEnd(q, i+1)
			out = append(out, sqlToken{kind: tokOther, start: i, end: j, text: q[i:j]})
			i = j
		case c == '$' && dollarTag(q, i) != "":
			tag := dollarTag(q, i)
			j := skipTo(q, i+len(tag), tag)
			out = append(out, sqlToken{kind: tokOther, start: i, end: j, text: q[i:j]})
			i = j
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
			for j < len(q) && identPart(q[j]) {
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

func identPart(c byte) bool {
	return identStart(c) || c >= '0' && c <= '9' || c == '$'
}

// dollarTag is the opening $tag$ (or $$) of a dollar-quoted string at i,
// or "" ($1 is a parameter, not a quote).
func dollarTag(q string, i int) string {
	j := i + 1
	if j < len(q) && identStart(q[j]) {
		for j < len(q) && identPart(q[j]) && q[j] != '$' {
			j++
		}
	}
	if j < len(q) && q[j] == '$' {
		return q[i : j+1]
	}
	return ""
}

// commentEnd returns the index just past the block comment at i, nested
// comments included (or len(q)).
func commentEnd(q string, i int) int {
	depth := 0
	for j := i; j+1 < len(q); j++ {
		switch q[j : j+2] {
		case "/*":
			depth++
			j++
		case "*/":
			depth--
			j++
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(q)
}

// escapedEnd returns the index just past the E'..' string whose quote is
// at i: a backslash escapes the next byte, a doubled quote is a quote.
func escapedEnd(q string, i int) int {
	for j := i + 1; j < len(q); j++ {
		switch q[j] {
		case '\\':
			j++
		case '\'':
			if j+1 < len(q) && q[j+1] == '\'' {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(q)
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
