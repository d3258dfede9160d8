package docs

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/docket-dev/docket/loader/internal/search"
)

// SearchFunc runs one query (the search package's hybrid search).
type SearchFunc func(ctx context.Context, query string, k int) ([]search.Hit, error)

// searchHit is a hit with the link to the cited span on its document page.
type searchHit struct {
	search.Hit
	Href string `json:"href"`
}

// Handler serves the generated site at siteDir and answers
// /api/search?q=...&k=... with JSON hits linking to the cited span.
func Handler(siteDir string, fn SearchFunc) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(siteDir)))
	mux.HandleFunc("/api/search", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		q := strings.TrimSpace(r.URL.Query().Get("q"))
		k, _ := strconv.Atoi(r.URL.Query().Get("k"))
		if k <= 0 || k > 100 {
			k = 10
		}
		if q == "" {
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]string{"error": "empty query"})
			return
		}
		hits, err := fn(r.Context(), q, k)
		if err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
			return
		}
		out := make([]searchHit, 0, len(hits))
		for _, h := range hits {
			out = append(out, searchHit{Hit: h, Href: fmt.Sprintf("%s#hl=%d:%d:%d", docRel(h.DocID), h.Page, h.CharOffset, h.CharEnd)})
		}
		json.NewEncoder(w).Encode(map[string]any{"query": q, "hits": out})
	})
	return mux
}
