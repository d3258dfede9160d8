package executor

import "testing"

// TestSQLTokensReadStringsAsDuckDB: a db.information_schema name inside a
// dollar-quoted string, an E'..' string with a backslash-escaped quote or
// a nested block comment is text, not a name to rewrite; one after them
// is found. (DuckDB reads `select 1 /* a /* b */ c */, E'it\'s', $$a 'b$$,
// $t$q$t$` as 1, it's, a 'b, q.)
func TestSQLTokensReadStringsAsDuckDB(t *testing.T) {
	for _, c := range []struct {
		q    string
		want int // db.information_schema.x names found
	}{
		{`select $$ w.information_schema.tables $$, w.information_schema.columns`, 1},
		{`select $tag$ it's w.information_schema.tables $tag$ from w.information_schema.columns`, 1},
		{`select E'it\'s w.information_schema.tables' from t`, 0},
		{`select e'\\' as s, w.information_schema.tables`, 1},
		{`select 1 /* a /* b */ w.information_schema.tables */ from w.information_schema.views`, 1},
		{`select $1, w.information_schema.tables`, 1},
		{`select 'a''b w.information_schema.tables'`, 0},
	} {
		toks := sqlTokens(c.q)
		got := 0
		for i := range toks {
			if _, ok := infoSchemaAt(toks, i); ok {
				got++
			}
		}
		if got != c.want {
			t.Errorf("%s: %d names found, want %d (tokens %q)", c.q, got, c.want, texts(toks))
		}
	}
}

func texts(toks []sqlToken) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.text
	}
	return out
}
