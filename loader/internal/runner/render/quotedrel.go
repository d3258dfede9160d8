package render

import (
	"regexp"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/sqllex"
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
// group 2) printed inside a SQL string literal of src. The SQL text is
// split by sqllex's scanner (the executor's too), with the template's
// {{ }}, {% %} and {# #} opaque: a quote inside one ends no literal. So
// every literal DuckDB knows counts ('..' with a doubled quote for an apostrophe,
// E'..' with backslash escapes, $$..$$ and $tag$..$tag$), and an
// apostrophe in a "quoted identifier" or a -- or nested /* */ comment
// opens none. A {{ }} print inside a literal whose expression is a
// relation is a span. (E'..' and dollar-quoted literals were unknown: a
// relation inside one stayed two-part, and an apostrophe inside one
// turned the SQL after it into a literal.)
func quotedRelSpans(src string) [][2]int {
	if !strings.Contains(src, "{{") || !strings.ContainsAny(src, "'$") {
		return nil
	}
	var out [][2]int
	for _, t := range sqllex.Tokens(src, templateEnd) {
		if t.Kind != sqllex.String {
			continue
		}
		for i := t.Start; i < t.End; {
			end := templateEnd(src, i)
			if end == i {
				i++
				continue
			}
			if strings.HasPrefix(src[i:], "{{") && end-2 >= i+2 {
				if m := relExprRe.FindStringSubmatchIndex(src[i+2 : end-2]); m != nil {
					out = append(out, [2]int{i + 2 + m[4], i + 2 + m[5]})
				}
			}
			i = end
		}
	}
	return out
}

// templateEnd is the offset past the {{ }}, {% %} or {# #} starting at i
// of src (unclosed: len(src)), or i when none starts there.
func templateEnd(src string, i int) int {
	if i+1 >= len(src) || src[i] != '{' {
		return i
	}
	var end string
	switch src[i+1] {
	case '{':
		end = "}}"
	case '%':
		end = "%}"
	case '#':
		end = "#}"
	default:
		return i
	}
	if j := strings.Index(src[i+2:], end); j >= 0 {
		return i + 2 + j + len(end)
	}
	return len(src)
}
