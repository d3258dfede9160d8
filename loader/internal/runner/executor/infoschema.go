package executor

import (
	"context"
	"strings"
)

// DuckDB keeps information_schema in its `system` catalog, where each view
// spans every attached database (rows carry their table_catalog): a name
// qualified by a database, `"db".information_schema.tables` as Postgres,
// Snowflake and Redshift read it and as dbt's cross-database macros write
// it (dbt_utils' get_tables_by_pattern_sql), is "schema information_schema
// does not exist" in DuckDB. catalogInfoSchema rewrites such a name to the
// system view narrowed to that database, which is what it means on those
// databases:
//
//	from w.information_schema.tables t
//	from (select * from system.information_schema.tables where table_catalog = 'w') t
//
// Only a database that is attached is rewritten (any other name keeps
// DuckDB's own error); strings, quoted identifiers and comments are read
// as SQL reads them. dbt-duckdb passes the name through, and fails.
func catalogInfoSchema(ctx context.Context, c QueryExecer, q string) string {
	if !strings.Contains(strings.ToLower(q), "information_schema") {
		return q
	}
	toks := sqlTokens(q)
	var hits []infoSchemaRef
	for i := range toks {
		if r, ok := infoSchemaAt(toks, i); ok {
			hits = append(hits, r)
		}
	}
	if len(hits) == 0 {
		return q
	}
	cat, err := newInfoCatalog(ctx, c)
	if err != nil {
		return q
	}
	var b strings.Builder
	last := 0
	for _, h := range hits {
		repl, ok := cat.replacement(ctx, c, h)
		if !ok {
			continue
		}
		b.WriteString(q[last:h.start])
		b.WriteString(repl)
		last = h.end
	}
	b.WriteString(q[last:])
	return b.String()
}

// infoSchemaRef is one `db.information_schema.view` in a statement.
type infoSchemaRef struct {
	start, end int // byte span of the three-part name
	db, view   string
	next       sqlToken // the token after the name (zero at the end)
}

// infoSchemaAt reads a `db.information_schema.view` name starting at
// token i (not part of a longer dotted name).
func infoSchemaAt(toks []sqlToken, i int) (infoSchemaRef, bool) {
	if i+4 >= len(toks) || (i > 0 && toks[i-1].kind == tokDot) {
		return infoSchemaRef{}, false
	}
	db, d1, is, d2, view := toks[i], toks[i+1], toks[i+2], toks[i+3], toks[i+4]
	if !db.isIdent() || d1.kind != tokDot || !is.isIdent() || d2.kind != tokDot || !view.isIdent() ||
		is.name() != "information_schema" {
		return infoSchemaRef{}, false
	}
	r := infoSchemaRef{start: db.start, end: view.end, db: db.name(), view: view.name()}
	if i+5 < len(toks) {
		if toks[i+5].kind == tokDot {
			return infoSchemaRef{}, false
		}
		r.next = toks[i+5]
	}
	return r, true
}

// infoCatalog is what the rewrite asks DuckDB: the attached databases and
// the keywords that cannot be an alias.
type infoCatalog struct {
	dbs      map[string]string // lower-case name -> name
	reserved map[string]bool
}

func newInfoCatalog(ctx context.Context, c QueryExecer) (*infoCatalog, error) {
	ic := &infoCatalog{dbs: map[string]string{}, reserved: map[string]bool{}}
	_, rows, err := sqlQuerier{c}.rows(ctx, "select database_name from duckdb_databases() where not internal")
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if s, ok := r[0].(string); ok {
			ic.dbs[strings.ToLower(s)] = s
		}
	}
	// an alias without AS is a ColId in DuckDB's grammar: any identifier
	// but a reserved or type/function-name keyword
	_, rows, err = sqlQuerier{c}.rows(ctx, "select keyword_name from duckdb_keywords() where keyword_category in ('reserved', 'type_function')")
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if s, ok := r[0].(string); ok {
			ic.reserved[strings.ToLower(s)] = true
		}
	}
	return ic, nil
}

// replacement is the subquery for h, or false when h's database is not
// attached or DuckDB has no such view.
func (ic *infoCatalog) replacement(ctx context.Context, c QueryExecer, h infoSchemaRef) (string, bool) {
	db, ok := ic.dbs[h.db]
	if !ok {
		return "", false
	}
	_, rows, err := sqlQuerier{c}.rows(ctx, `select (select column_name from duckdb_columns() c
			where c.database_name = 'system' and c.schema_name = 'information_schema' and c.table_name = v.view_name
			and column_name in ('table_catalog', 'catalog_name', 'constraint_catalog')
			order by column_name = 'table_catalog' desc, column_name = 'catalog_name' desc limit 1)
		from duckdb_views() v
		where v.database_name = 'system' and v.schema_name = 'information_schema' and v.view_name = ?`, h.view)
	if err != nil || len(rows) == 0 {
		return "", false
	}
	sub := "(select * from system.information_schema." + quoteIdent(h.view)
	if col, _ := rows[0][0].(string); col != "" {
		sub += " where " + quoteIdent(col) + " = '" + strings.ReplaceAll(db, "'", "''") + "'"
	}
	sub += ")"
	if !ic.aliasFollows(h.next) {
		sub += " as " + quoteIdent(h.view)
	}
	return sub, true
}

// aliasFollows: the token after the name is an alias (AS, a quoted
// identifier, or an identifier DuckDB's grammar takes as a bare alias).
func (ic *infoCatalog) aliasFollows(t sqlToken) bool {
	switch t.kind {
	case tokQuoted:
		return true
	case tokIdent:
		return t.name() == "as" || !ic.reserved[t.name()]
	}
	return false
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
