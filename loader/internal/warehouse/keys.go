package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// uniqueKeys are the keys of the tables that grow with the corpus, which
// have no PRIMARY KEY since schema version 11 (v11Unkeyed): the loader
// keeps them unique, DuplicateKeys checks it (and models/sources.yml's
// tests, which `docket build` and `docket test` run).
var uniqueKeys = []struct{ table, key string }{
	{"raw.documents", "doc_id"},
	{"raw.document_versions", "doc_id, source_hash"},
	{"staging.pages", "source_hash, page_number"},
	{"staging.extractions", "source_hash"},
	{"staging.tables", "table_id"},
	{"staging.attachments", "source_hash, seq"},
}

// DuplicateKeys returns, per table whose key is not unique, how many rows
// it has beyond one per key; empty when every key is unique.
func (w *DB) DuplicateKeys(ctx context.Context) (map[string]int64, error) {
	parts := make([]string, len(uniqueKeys))
	for i, k := range uniqueKeys {
		parts[i] = fmt.Sprintf(`select '%s', count(*) - count(distinct (%s)) from %s`, k.table, k.key, k.table)
	}
	out := map[string]int64{}
	err := w.each(ctx, strings.Join(parts, " union all "), func(r *sql.Rows) error {
		var t string
		var n int64
		if err := r.Scan(&t, &n); err != nil {
			return err
		}
		if n > 0 {
			out[t] = n
		}
		return nil
	})
	return out, err
}
