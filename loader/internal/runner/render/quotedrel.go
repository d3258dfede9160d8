package render

import (
	"regexp"
	"strings"
)

// relExprRe is what a print must hold to be a relation: this, ref(...) or
// source(...), with its whitespace control (groups 1 and 3).
var relExprRe = regexp.MustCompile(`^(-?\s*)(this|(?:ref|source)\s*\((?:[^()'"]|'[^']*'|"[^"]*")*\))(\s*-?)$`)

// quotedRelations makes a relation printed inside a SQL string literal
// dbt-duckdb's: there a relation prints as "database"."schema"."identifier",
// so '{{ this }}' (or 'audit of {{ ref('m') }}') writes that into data (an
// audit table's model column, a hook's insert), where docket's SQL names are
// two-part (a view must open under any catalog name). Each such print goes
// through docket_dbt_name (the compiler's dbt.string_literal rendering;
// identity where no node renders). A print outside a literal is SQL and
// stays two-part. It found only a literal holding the print alone
// ('{{ this }}'): 'x{{ this }}y' stayed two-part.
func quotedRelations(src string) string {
	spans := quotedRelSpans(src)
	if len(spans) == 0 {
		return src
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(src[last:sp[0]])
		b.WriteString(dbtNameOpen)
		b.WriteString(src[sp[0]:sp[1]])
		b.WriteString(dbtNameClose)
		last = sp[1]
	}
	b.WriteString(src[last:])
	return b.String()
}

// quotedRelSpans are the spans of the relation expressions (relExprRe's
// group 2) printed inside a SQL string literal of src: the SQL text
// outside Jinja is scanned for its quotes (two inside a literal are an
// apostrophe), skipping double-quoted identifiers ("owner's id") and -- and
// /* */ comments outside literals, {# #} comments and {% %} statements;
// a {{ }} print inside a literal whose expression is a relation is a span.
func quotedRelSpans(src string) [][2]int {
	if !strings.Contains(src, "{{") || !strings.Contains(src, "'") {
		return nil
	}
	var out [][2]int
	inLit := false
	skipTo := func(i int, end string) int {
		if j := strings.Index(src[i:], end); j >= 0 {
			return i + j + len(end)
		}
		return len(src)
	}
	for i := 0; i < len(src); {
		switch {
		case strings.HasPrefix(src[i:], "{#"):
			i = skipTo(i+2, "#}")
		case strings.HasPrefix(src[i:], "{%"):
			i = skipTo(i+2, "%}")
		case strings.HasPrefix(src[i:], "{{"):
			end := skipTo(i+2, "}}")
			if inLit && end <= len(src) && end-2 >= i+2 {
				if m := relExprRe.FindStringSubmatchIndex(src[i+2 : end-2]); m != nil {
					out = append(out, [2]int{i + 2 + m[4], i + 2 + m[5]})
				}
			}
			i = end
		case inLit && strings.HasPrefix(src[i:], "''"):
			i += 2
		case !inLit && src[i] == '"':
			// a quoted identifier ("owner's id"): an apostrophe in it
			// opens no literal ("" inside it is a quote)
			i = skipQuoted(src, i+1)
		case src[i] == '\'':
			inLit = !inLit
			i++
		case !inLit && strings.HasPrefix(src[i:], "--"):
			i = skipTo(i+2, "\n")
		case !inLit && strings.HasPrefix(src[i:], "/*"):
			i = skipTo(i+2, "*/")
		default:
			i++
		}
	}
	return out
}

// skipQuoted is the offset past the double-quoted identifier whose text
// starts at i ("" inside it is a quote; unclosed: the end of src).
func skipQuoted(src string, i int) int {
	for i < len(src) {
		j := strings.IndexByte(src[i:], '"')
		if j < 0 {
			return len(src)
		}
		i += j + 1
		if i < len(src) && src[i] == '"' {
			i++
			continue
		}
		return i
	}
	return len(src)
}
