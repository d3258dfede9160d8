package main

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"sort"
	"time"

	_ "github.com/duckdb/duckdb-go/v2" // a plain DuckDB client: no docket code, no UDFs

	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

// notebook is what a notebook user gets from retrieval.bm25(query, k):
// the published copy opened read-only by a plain DuckDB client (no docket
// code), the first query's time (the connection's first read of the
// tables), then every query on the same connection: wall p50/p95 and the
// CPU p50 of the process (DuckDB's threads included).
type notebook struct {
	First time.Duration
	latency
}

func notebookLatency(dir string, queries []string) (notebook, error) {
	var nb notebook
	db, err := sql.Open("duckdb", filepath.Join(dir, "warehouse.read.duckdb")+"?access_mode=read_only")
	if err != nil {
		return nb, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	run := func(q string) (time.Duration, time.Duration, error) {
		t0, c0 := time.Now(), bench.SelfCPU()
		rows, err := db.Query(`select chunk_id, score, rel_path, page_number, text from retrieval.bm25(?, k := 10)`, q)
		if err != nil {
			return 0, 0, err
		}
		n := 0
		for rows.Next() {
			n++
		}
		if err := rows.Err(); err != nil {
			return 0, 0, err
		}
		rows.Close()
		if n == 0 {
			return 0, 0, fmt.Errorf("retrieval.bm25(%q): no hits", q)
		}
		return time.Since(t0), bench.SelfCPU() - c0, nil
	}
	if nb.First, _, err = run(queries[0]); err != nil {
		return nb, err
	}
	var lat, cpu []time.Duration
	load := bench.LoadAvg()
	for _, q := range queries {
		w, c, err := run(q)
		if err != nil {
			return nb, err
		}
		lat, cpu = append(lat, w), append(cpu, c)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	sort.Slice(cpu, func(i, j int) bool { return cpu[i] < cpu[j] })
	nb.latency = latency{percentile(lat, 0.50), percentile(lat, 0.95), percentile(cpu, 0.50), load}
	return nb, nil
}
