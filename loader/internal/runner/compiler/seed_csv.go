package compiler

import (
	"fmt"
	"strings"
)

// SeedCSVOptions are read_csv's options for a seed (its delimiter and
// column_types).
func SeedCSVOptions(n *Node) string {
	opts := "header = true, auto_detect = true"
	if d := n.Config.Delimiter; d != "" {
		opts += ", delim = '" + strings.ReplaceAll(d, "'", "''") + "'"
	}
	if len(n.Config.ColumnTypes) > 0 {
		var kv []string
		for _, k := range SortedKeys(n.Config.ColumnTypes) {
			kv = append(kv, fmt.Sprintf("'%s': '%s'", strings.ReplaceAll(k, "'", "''"), strings.ReplaceAll(SeedColumnType(n.Config.ColumnTypes[k]), "'", "''")))
		}
		opts += ", types = {" + strings.Join(kv, ", ") + "}"
	}
	return opts
}

// SeedColumnType is the DuckDB type of a seed's column_types entry. A bare
// `float` is DOUBLE: dbt projects write seed types for Postgres,
// Snowflake, BigQuery and Redshift, where FLOAT is 8 bytes, and dbt's own
// cross-database type_float() means that float; DuckDB's FLOAT is the
// 4-byte REAL. This deviates from dbt-duckdb, which passes `float` through
// (REAL). Any other type, `float4`/`real` included, is DuckDB's own.
func SeedColumnType(t string) string {
	if strings.EqualFold(strings.TrimSpace(t), "float") {
		return "DOUBLE"
	}
	return t
}
