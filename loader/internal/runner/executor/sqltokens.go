package executor

import (
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/sqllex"
)

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
// tokOther token. The scanner is sqllex's, which the render's search for
// relations printed inside literals uses too.
func sqlTokens(q string) []sqlToken {
	lexed := sqllex.Tokens(q, nil)
	out := make([]sqlToken, len(lexed))
	for i, t := range lexed {
		k := tokOther
		switch t.Kind {
		case sqllex.Ident:
			k = tokIdent
		case sqllex.Quoted:
			k = tokQuoted
		case sqllex.Dot:
			k = tokDot
		}
		out[i] = sqlToken{kind: k, start: t.Start, end: t.End, text: q[t.Start:t.End]}
	}
	return out
}
