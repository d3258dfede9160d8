package executor

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// udfCall is a Go UDF call found in a statement.
type udfCall struct {
	name   string
	offset int // byte offset in the statement, -1 when unknown
}

// udfCalledParsed finds the first call of a registered Go UDF in stmt using
// DuckDB's own parser (json_serialize_sql), so quoting ("normalize_text"),
// qualification (system.main.normalize_text) and case resolve exactly as
// DuckDB resolves them. When DuckDB cannot serialize the statement it falls
// back to the text scan.
func udfCalledParsed(ctx context.Context, m *compiler.Manifest, c *sql.Conn, stmt string) udfCall {
	if len(m.UDFs) == 0 {
		return udfCall{offset: -1}
	}
	var raw string
	err := c.QueryRowContext(ctx, "select json_serialize_sql(?::varchar)::varchar", stmt).Scan(&raw)
	var tree any
	if err == nil {
		err = json.Unmarshal([]byte(raw), &tree)
	}
	if err != nil || isErrorTree(tree) {
		return udfCall{name: m.UDFCalled(stmt), offset: -1}
	}
	udfs := map[string]string{}
	for _, u := range m.UDFs {
		udfs[strings.ToLower(u.Name)] = u.Name
	}
	found := udfCall{offset: -1}
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			if t["class"] == "FUNCTION" {
				name, _ := t["function_name"].(string)
				schema, _ := t["schema"].(string)
				catalog, _ := t["catalog"].(string)
				if u, ok := udfs[strings.ToLower(name)]; ok && (schema == "" || strings.EqualFold(schema, "main")) &&
					(catalog == "" || strings.EqualFold(catalog, "system")) {
					off := -1
					if loc, ok := t["query_location"].(float64); ok && loc >= 0 && int(loc) < len(stmt) {
						off = int(loc)
					}
					if found.name == "" || (off >= 0 && (found.offset < 0 || off < found.offset)) {
						found = udfCall{name: u, offset: off}
					}
				}
			}
			for _, x := range t {
				walk(x)
			}
		case []any:
			for _, x := range t {
				walk(x)
			}
		}
	}
	walk(tree)
	return found
}

func isErrorTree(tree any) bool {
	mp, ok := tree.(map[string]any)
	if !ok {
		return true
	}
	e, _ := mp["error"].(bool)
	return e
}
