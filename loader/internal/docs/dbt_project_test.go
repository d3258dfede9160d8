package docs_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestDocsOfADbtProject: `docket docs generate` in a plain dbt project (no
// documents loaded, so no loader tables) writes the site and a catalog
// with dbt's nodes and sources only, as dbt's has them.
func TestDocsOfADbtProject(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"dbt_project.yml":      "name: shop\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":         "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: shop.duckdb, schema: main}\n",
		"seeds/people.csv":     "id,name\n1,Ann\n2,Bo\n",
		"models/schema.yml":    "version: 2\nsources:\n  - name: raw\n    schema: main\n    tables:\n      - name: people\n",
		"models/as_view.sql":   "select * from {{ source('raw', 'people') }}",
		"models/as_table.sql":  "{{ config(materialized='table') }}\nselect * from {{ ref('as_view') }}",
		"models/ephemeral.sql": "{{ config(materialized='ephemeral') }}\nselect 1 as id",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docket(t, dir, "build")
	out := docket(t, dir, "docs", "generate")
	if !strings.Contains(out, "0 documents, 0 load runs") {
		t.Errorf("docs generate: %s", out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "target", "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cat struct{ Nodes, Sources map[string]any }
	if err := json.Unmarshal(b, &cat); err != nil {
		t.Fatal(err)
	}
	var nodes, sources []string
	for id := range cat.Nodes {
		nodes = append(nodes, id)
	}
	for id := range cat.Sources {
		sources = append(sources, id)
	}
	sort.Strings(nodes)
	if strings.Join(nodes, " ") != "model.shop.as_table model.shop.as_view seed.shop.people" || strings.Join(sources, " ") != "source.shop.raw.people" {
		t.Errorf("catalog nodes %v, sources %v; want the 2 models and the seed, and the source", nodes, sources)
	}
	for _, page := range []string{"index.html", "health.html", "documents.html"} {
		if _, err := os.Stat(filepath.Join(dir, "target", "docs", page)); err != nil {
			t.Error(err)
		}
	}
}
