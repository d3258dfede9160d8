package docs_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCatalogOfAnExternalSource: a source read from a file (dbt-duckdb's
// meta.external_location) is in the catalog with the columns DuckDB reads
// from the file; one whose file cannot be read is named with DuckDB's
// reason. robust29's hunt: both were "relation read_csv(...) is not in the
// warehouse (not built yet?)", which no build could mend.
func TestCatalogOfAnExternalSource(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "data", "people.csv")
	files := map[string]string{
		"dbt_project.yml": "name: shop\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":    "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: shop.duckdb, schema: main}\n",
		"data/people.csv": "id,name\n1,Ann\n2,Bo\n",
		"models/schema.yml": "version: 2\nsources:\n  - name: files\n    tables:\n" +
			"      - name: people\n        meta:\n          external_location: \"read_csv('" + csv + "', header=true)\"\n" +
			"      - name: gone\n        meta:\n          external_location: \"read_csv('" + filepath.Join(dir, "data", "gone.csv") + "')\"\n",
		"models/people.sql": "select * from {{ source('files', 'people') }}",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docket(t, dir, "build")
	docket(t, dir, "docs", "generate")
	b, err := os.ReadFile(filepath.Join(dir, "target", "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cat struct {
		Sources map[string]struct {
			Metadata struct{ Name string }
			Columns  map[string]struct{ Type string }
		}
		Errors []string
	}
	if err := json.Unmarshal(b, &cat); err != nil {
		t.Fatal(err)
	}
	src := cat.Sources["source.shop.files.people"]
	if src.Metadata.Name != "people" || src.Columns["id"].Type != "BIGINT" || src.Columns["name"].Type != "VARCHAR" {
		t.Errorf("source.shop.files.people: %+v", src)
	}
	if len(cat.Errors) != 1 || !strings.Contains(cat.Errors[0], "source.shop.files.gone: external location") ||
		!strings.Contains(cat.Errors[0], "No files found") {
		t.Errorf("errors %q", cat.Errors)
	}
}
