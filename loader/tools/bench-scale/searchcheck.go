package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// searchHits runs one `docket search --json` and returns its chunk ids and
// whether the search index alone answered.
func searchHits(bin, dir, mode, q string) ([]string, bool, error) {
	_, out, err := runDocket(bin, dir, "search", "--json", "--mode", mode, "-k", "10", q)
	if err != nil {
		return nil, false, err
	}
	i := strings.Index(string(out), "{")
	if i < 0 {
		return nil, false, fmt.Errorf("search %q: no JSON:\n%s", q, tail(string(out), 500))
	}
	var r struct {
		Hits []struct {
			ChunkID string `json:"chunk_id"`
		} `json:"hits"`
		SearchIndex bool `json:"search_index"`
	}
	if err := json.Unmarshal(out[i:], &r); err != nil {
		return nil, false, err
	}
	var ids []string
	for _, h := range r.Hits {
		ids = append(ids, h.ChunkID)
	}
	return ids, r.SearchIndex, nil
}

// indexCheck says whether searches answer from the search index and, for
// the first n queries per mode, whether the SQL path (the index moved
// aside) returns the same chunks in the same order.
type indexCheck struct {
	used         bool
	same, tested int
	differ       []string
}

func checkIndex(bin, dir string, queries []string, n int) (indexCheck, error) {
	var c indexCheck
	_, used, err := searchHits(bin, dir, "bm25", queries[0])
	if err != nil {
		return c, err
	}
	c.used = used
	if !used || n == 0 {
		return c, nil
	}
	qs := queries[:min(n, len(queries))]
	got := map[string][]string{}
	for _, mode := range modes {
		for _, q := range qs {
			ids, _, err := searchHits(bin, dir, mode, q)
			if err != nil {
				return c, err
			}
			got[mode+"|"+q] = ids
		}
	}
	ip := filepath.Join(dir, "warehouse.read.duckdb.search.json") // its binding: without it, the index is not used
	if err := os.Rename(ip, ip+".aside"); err != nil {
		return c, err
	}
	defer os.Rename(ip+".aside", ip)
	for _, mode := range modes {
		for _, q := range qs {
			ids, used, err := searchHits(bin, dir, mode, q)
			if err != nil {
				return c, err
			}
			if used {
				return c, fmt.Errorf("search answered from an index that was moved aside")
			}
			c.tested++
			if strings.Join(ids, ",") == strings.Join(got[mode+"|"+q], ",") {
				c.same++
			} else {
				c.differ = append(c.differ, mode+" "+q)
			}
		}
	}
	return c, nil
}
