package searchidx

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"strings"
)

// What identifies a search_chunks row for the index: its hash (Update
// compares it to find changed chunks), whether it has a vector, and the
// SQL conditions that restrict a delta to its chunks. Used by both the
// full build (write.go) and the update (update.go).

// rowHashSQL hashes what a search shows of a search_chunks row (its
// citation, text and length, and whether it is a table's: isTable, from
// IsTableSQL): Update compares it to find changed chunks. A chunk not of a
// table hashes as before is_table was a column, so an index written then
// stays current.
func rowHashSQL(isTable string) string {
	return `xor(hash(chunk_id, doc_id, rel_path, source_uri, title, page_number, char_offset, char_end, section_title, text_hash, doc_length),
		case when ` + isTable + ` then 11400714819323198485::ubigint else 0::ubigint end)`
}

// IsTableSQL is the SQL of search_chunks' is_table: the column, or false in
// a table built by a project whose search_chunks.sql predates it.
func IsTableSQL(ctx context.Context, conn *sql.Conn) (string, error) {
	var n int
	err := conn.QueryRowContext(ctx, `select count(*) from duckdb_columns()
		where schema_name = 'retrieval' and table_name = 'search_chunks' and column_name = 'is_table'`).Scan(&n)
	if err != nil {
		return "", searchChunksErr(err)
	}
	if n == 0 {
		return "false", nil
	}
	return "coalesce(is_table, false)", nil
}

// hasVectorSQL is a search_chunks column: whether the model has a vector
// of the chunk's text. In an update (cached) it reads vecTable, which
// fillVectorHashes wrote once for every statement of the update: the
// vectors' embedding column is then read once, not per statement.
func hasVectorSQL(model string, cached bool) (string, []any) {
	if model == "" {
		return "false", nil
	}
	if cached {
		return `text_hash in (select text_hash from ` + vecTable + `)`, nil
	}
	return `text_hash in (select text_hash from embeddings.chunk_vectors where model = ? and embedding is not null)`, []any{model}
}

// vecTable holds, during an update, the text hashes the model has a
// vector of (a temporary table of the reading connection).
const vecTable = "temp.searchidx_vec"

// fillVectorHashes writes vecTable for model.
func fillVectorHashes(ctx context.Context, conn *sql.Conn, model string) error {
	if model == "" {
		return nil
	}
	if _, err := conn.ExecContext(ctx, `create or replace temp table searchidx_vec as
		select distinct text_hash from embeddings.chunk_vectors where model = ? and embedding is not null`, model); err != nil {
		return fmt.Errorf("search index: reading embeddings.chunk_vectors: %w", err)
	}
	return nil
}

// keysTable holds the chunk keys a delta is written for (a temporary table
// of the reading connection).
const keysTable = "temp.searchidx_keys"

// onlyKeys is the condition restricting search_chunks or chunk_terms rows
// to the delta's chunks, when only.
func onlyKeys(only bool, keyword string) string {
	if !only {
		return ""
	}
	return keyword + " chunk_key in (select chunk_key from " + keysTable + ")"
}

// rowHash is a chunk's row hash (rowHashSQL), whether it has a vector, and
// for an attachment (a path with '#') its display path, which the
// containing documents decide.
func rowHash(sqlHash uint64, hasVector bool, path, display string) uint64 {
	h := fnv.New64a()
	var b [9]byte
	le.PutUint64(b[:], sqlHash)
	if hasVector {
		b[8] = 1
	}
	h.Write(b[:])
	if strings.Contains(path, "#") {
		h.Write([]byte(display))
	}
	return h.Sum64()
}
