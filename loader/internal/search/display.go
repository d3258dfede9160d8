package search

import (
	"context"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
)

// displayPaths fills each hit's DisplayPath: an attachment as
// "parent.eml › attachment.pdf" (document.DisplayPath). Only a hit whose
// path has a '#' can be an attachment; for those the chain of containing
// documents is read from raw.documents, one query per attachment level.
// Without raw.documents the path is shown as stored.
func (s *Searcher) displayPaths(ctx context.Context, hits []Hit) []Hit {
	known := map[string][2]string{} // doc_id → rel_path, parent_doc_id
	var want []string
	for _, h := range hits {
		if strings.Contains(h.Path, "#") {
			want = append(want, h.DocID)
		}
	}
	for level := 0; len(want) > 0 && level < document.MaxDisplayDepth; level++ {
		lits := make([]string, len(want))
		for i, id := range want {
			lits[i] = "'" + strings.ReplaceAll(id, "'", "''") + "'"
		}
		rows, err := s.conn.QueryContext(ctx, `select doc_id, rel_path, coalesce(parent_doc_id, '') from raw.documents where doc_id in (`+strings.Join(lits, ",")+`)`)
		if err != nil {
			break
		}
		want = want[:0]
		for rows.Next() {
			var id, rel, parent string
			if rows.Scan(&id, &rel, &parent) != nil {
				continue
			}
			known[id] = [2]string{rel, parent}
			if _, seen := known[parent]; parent != "" && !seen {
				want = append(want, parent)
			}
		}
		rows.Close()
	}
	lookup := func(id string) (string, string, bool) { d, ok := known[id]; return d[0], d[1], ok }
	for i, h := range hits {
		if _, ok := known[h.DocID]; ok {
			hits[i].DisplayPath = document.DisplayPathOf(h.DocID, lookup)
		} else {
			hits[i].DisplayPath = document.DisplayPath(h.Path, nil)
		}
	}
	return hits
}
