package searchidx

import (
	"context"
	"database/sql"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// DisplayPaths returns the display path of each document in docs (doc_id
// → rel_path): an attachment as "parent.eml › attachment.pdf"
// (document.DisplayPath). Only a path with a '#' can be an attachment; for
// those the chain of containing documents is read from raw.documents, one
// query per attachment level. Without raw.documents a path is shown as
// stored. `docket search` uses it for the hits it prints; the index stores
// every chunk's.
func DisplayPaths(ctx context.Context, conn *sql.Conn, docs map[string]string) map[string]string {
	known := map[string][2]string{} // doc_id → rel_path, parent_doc_id
	var want []string
	for id, path := range docs {
		if strings.Contains(path, "#") {
			want = append(want, id)
		}
	}
	for level := 0; conn != nil && len(want) > 0 && level < document.MaxDisplayDepth; level++ {
		var next []string
		for start := 0; start < len(want); start += 1000 {
			batch := want[start:min(start+1000, len(want))]
			lits := make([]string, len(batch))
			for i, id := range batch {
				lits[i] = "'" + strings.ReplaceAll(id, "'", "''") + "'"
			}
			rows, err := conn.QueryContext(ctx, `select doc_id, rel_path, coalesce(parent_doc_id, '') from raw.documents where doc_id in (`+strings.Join(lits, ",")+`)`)
			if err != nil {
				next = nil
				level = document.MaxDisplayDepth
				break
			}
			for rows.Next() {
				var id, rel, parent string
				if rows.Scan(&id, &rel, &parent) != nil {
					continue
				}
				known[id] = [2]string{rel, parent}
				if _, seen := known[parent]; parent != "" && !seen {
					next = append(next, parent)
				}
			}
			rows.Close()
		}
		want = next
	}
	lookup := func(id string) (string, string, bool) { d, ok := known[id]; return d[0], d[1], ok }
	out := make(map[string]string, len(docs))
	for id, path := range docs {
		if _, ok := known[id]; ok {
			out[id] = document.DisplayPathOf(id, lookup)
		} else {
			out[id] = document.DisplayPath(path, nil)
		}
	}
	return out
}
