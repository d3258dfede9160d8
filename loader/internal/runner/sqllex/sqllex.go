// Package sqllex splits SQL text into tokens as DuckDB's lexer does, for
// the runner's two readers of SQL text: the executor's rewrite of
// db.information_schema names and the render's search for relations
// printed inside string literals of a template. One scanner serves both,
// so both know the same literals ('..' with a doubled quote for a quote, E'..' with
// backslash escapes, $$..$$ and $tag$..$tag$), quoted identifiers and
// comments (-- to the end of the line, /* */ nesting).
package sqllex

import "strings"

// Kind is a token's kind.
type Kind int

const (
	Other  Kind = iota + 1 // punctuation, a number, an operator, an opaque span
	Ident                  // an unquoted identifier or keyword
	Quoted                 // a "quoted identifier"
	Dot                    // .
	String                 // a string literal, its quotes included
)

// Token is a span of the text.
type Token struct {
	Kind       Kind
	Start, End int
}

// Opaque, when a scan is given one, returns the offset past a construct of
// another language starting at offset i of q (a template's {{ }}, {% %} or
// {# #}), or i when none starts there. Such a span is one Other token
// outside a literal or identifier and part of the literal or identifier it
// is inside: a quote in it ('{{ ref('m') }}') ends nothing.
type Opaque func(q string, i int) int

// Tokens splits q into tokens, skipping blanks and comments (a comment is
// not searched for opaque spans).
func Tokens(q string, opaque Opaque) []Token {
	s := scanner{q: q, opaque: opaque}
	var out []Token
	for i := 0; i < len(q); {
		if j := s.skip(i); j > i {
			out = append(out, Token{Other, i, j})
			i = j
			continue
		}
		c, kind, j := q[i], Other, i+1
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
			continue
		case strings.HasPrefix(q[i:], "--"):
			i = past(q, i, "\n")
			continue
		case strings.HasPrefix(q[i:], "/*"):
			i = commentEnd(q, i)
			continue
		case (c == 'e' || c == 'E') && i+1 < len(q) && q[i+1] == '\'' && (i == 0 || !identPart(q[i-1])):
			kind, j = String, s.quotedEnd(i+1, true)
		case c == '$' && dollarTag(q, i) != "":
			kind, j = String, s.dollarEnd(i)
		case c == '\'':
			kind, j = String, s.quotedEnd(i, false)
		case c == '"':
			kind, j = Quoted, s.quotedEnd(i, false)
		case c == '.':
			kind = Dot
		case identStart(c):
			kind = Ident
			for j < len(q) && identPart(q[j]) {
				j++
			}
		}
		out = append(out, Token{kind, i, j})
		i = j
	}
	return out
}

type scanner struct {
	q      string
	opaque Opaque
}

// skip is the offset past an opaque span at i, or i.
func (s scanner) skip(i int) int {
	if s.opaque == nil {
		return i
	}
	if j := s.opaque(s.q, i); j > i {
		return min(j, len(s.q))
	}
	return i
}

// quotedEnd is the offset just past the quote closing the one at i (a
// doubled quote is part of the text; with escapes, a backslash escapes
// the next byte, as in E'..'), or len(q).
func (s scanner) quotedEnd(i int, escapes bool) int {
	q, c := s.q, s.q[i]
	for j := i + 1; j < len(q); {
		if k := s.skip(j); k > j {
			j = k
			continue
		}
		switch {
		case escapes && q[j] == '\\':
			j = max(s.skip(j+1), j+2) // a backslash escapes a byte, not a template's print
		case q[j] == c && j+1 < len(q) && q[j+1] == c:
			j += 2
		case q[j] == c:
			return j + 1
		default:
			j++
		}
	}
	return len(q)
}

// dollarEnd is the offset just past the dollar-quoted string opening at
// i ($$ or $tag$), or len(q).
func (s scanner) dollarEnd(i int) int {
	tag := dollarTag(s.q, i)
	for j := i + len(tag); j < len(s.q); {
		if k := s.skip(j); k > j {
			j = k
			continue
		}
		if strings.HasPrefix(s.q[j:], tag) {
			return j + len(tag)
		}
		j++
	}
	return len(s.q)
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

// commentEnd is the offset just past the block comment at i, nested
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

// past is the offset just past the first end at or after i (or len(q)).
func past(q string, i int, end string) int {
	if k := strings.Index(q[i:], end); k >= 0 {
		return i + k + len(end)
	}
	return len(q)
}
