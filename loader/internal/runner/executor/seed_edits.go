package executor

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// A seed's table edited behind the runner's back (an UPDATE from a
// notebook, dbt-tests-adapter's update_rows between two runs) is noticed:
// each seed's record keeps a digest of the table's rows as loaded, and a
// run first compares it with the rows the table has now. An edited seed
// gets a new data version (its readers, a snapshot for one, run again) and
// is loaded again from its file by the next build or seed, as dbt does
// every time. Seeds are small: the check reads each once per run. Other
// tables edited by hand are not noticed (use --force).

// seedContent is the digest of a table's rows: their count and the sum of
// their hashes, so order does not matter and a repeated row counts. ""
// when it cannot be read.
func seedContent(ctx context.Context, c *sql.Conn, rel string) string {
	var s string
	q := fmt.Sprintf("select count(*)::varchar || ':' || coalesce(sum(hash(t)::hugeint)::varchar, '') from %s t", rel)
	if err := c.QueryRowContext(ctx, q).Scan(&s); err != nil {
		return ""
	}
	return s
}

// noteSeedEdits marks the seeds whose table's rows differ from the digest
// recorded when they were loaded, and gives each a new data version.
func (st *buildState) noteSeedEdits(ctx context.Context, c *sql.Conn, m *compiler.Manifest) {
	st.edited = map[string]bool{}
	for id, prev := range st.prev {
		n := m.Nodes[id]
		if n == nil || n.ResourceType != compiler.Seed || prev.content == "" {
			continue
		}
		if _, ok := st.rels[[2]string{n.Schema, n.Alias}]; st.rels != nil && !ok {
			continue // gone: the seed is loaded again anyway
		}
		if now := seedContent(ctx, c, n.Relation); now != "" && now != prev.content {
			st.edited[id] = true
			st.versions[id] = compiler.Digest(prev.version, "edited", now)
		}
	}
}

// seedEdited reports whether seed id's table was edited since its load.
func (st *buildState) seedEdited(id string) bool {
	if st == nil {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.edited[id]
}

// nullIfEmpty is SQL NULL for "".
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
