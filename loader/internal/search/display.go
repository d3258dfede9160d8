package search

import (
	"context"

	"github.com/docket-dev/docket/loader/internal/searchidx"
)

// displayPaths fills each hit's DisplayPath (searchidx.DisplayPaths).
func (s *Searcher) displayPaths(ctx context.Context, hits []Hit) []Hit {
	docs := map[string]string{}
	for _, h := range hits {
		docs[h.DocID] = h.Path
	}
	shown := searchidx.DisplayPaths(ctx, s.conn, docs)
	for i, h := range hits {
		hits[i].DisplayPath = shown[h.DocID]
	}
	return hits
}
