package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestDuckDBExternalAndTableFunction: dbt-duckdb's own materializations
// build (they were "no materialization" errors): `external` writes the
// model with COPY to its location (relative to the project; format from
// config, the extension or parquet; options such as partition_by) and
// leaves a view over read_parquet/read_csv/read_json of the file, readers
// DuckDB has built in; `table_function` creates a table macro that a
// model reads as {{ ref('tf') }}(arg). An option docket does not apply is
// a warning at its line.
func TestDuckDBExternalAndTableFunction(t *testing.T) {
	ext := func(cfg string) string {
		return "{{ config(materialized='external'" + cfg + ") }}\nselect * from {{ ref('src') }}"
	}
	files := shapeProject("dx", map[string]string{
		"models/src.sql":         "{{ config(materialized='table') }} select 1 as id, 'a' as name union all select 2, 'b'",
		"models/out_pq.sql":      ext(", location='out/pq.parquet'"),
		"models/out_csv.sql":     ext(", location='out/c.txt', format='csv', delimiter='|'"),
		"models/out_json.sql":    ext(", location='out/j.json'"),
		"models/out_default.sql": ext(""),
		"models/out_part.sql":    ext(", location='out/part', options={'partition_by': 'name'}"),
		// an option VALUE naming overwrite is not the overwrite option: a
		// second run must still write into the existing partition folders
		"models/out_part2.sql": ext(", location='out/part2', options={'partition_by': 'name', 'filename_pattern': \"'overwrite_{i}'\"}"),
		"models/out_glue.sql":  ext(",\n  location='out/g.parquet', glue_register=true"),
		"models/tf.sql":        "{{ config(materialized='table_function', parameters='n') }}\nselect * from {{ ref('src') }} where id <= n",
		"models/use.sql": "select (select count(*) from {{ ref('tf') }}(1)) as tf1, (select string_agg(name, ',' order by id) from {{ ref('out_csv') }}) as csv,\n" +
			"  (select sum(id) from {{ ref('out_json') }}) as js, (select count(*) from {{ ref('out_part') }}) as part",
	})
	// dbt-duckdb's external_root: where a model without a location goes
	files["profiles.yml"] = strings.Replace(files["profiles.yml"], "      schema:", "      external_root: ext_out\n      schema:", 1)
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var warned []string
	for _, w := range m.Warnings {
		warned = append(warned, w.String())
	}
	if len(warned) != 1 || !strings.HasPrefix(warned[0], "models/out_glue.sql:1:") || !strings.Contains(warned[0], "glue_register") {
		t.Errorf("warnings: %q, want glue_register at models/out_glue.sql:1", warned)
	}
	for run := 1; run <= 2; run++ {
		rr, err := runDir(t, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rr.Results {
			if r.Status != executor.StatusSuccess {
				t.Fatalf("run %d: %s %s: %s", run, r.UniqueID, r.Status, r.Message)
			}
		}
	}
	for _, f := range []string{"out/pq.parquet", "out/c.txt", "out/j.json", "ext_out/out_default.parquet", "out/part/name=a", "out/part/name=b", "out/part2/name=a/overwrite_0.parquet"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("external file: %v", err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "out/c.txt")); !strings.HasPrefix(string(b), "id|name\n1|a\n") {
		t.Errorf("csv written: %q", b)
	}
	db := shapeDB(t, dir)
	q := shapeQuery(t, db)
	if got := q("select tf1 || ';' || csv || ';' || js || ';' || part from test_schema.use"); got != "1;a,b;3;2" {
		t.Errorf("use: %s", got)
	}
	if got := q("select string_agg(table_name || ':' || table_type, ',' order by table_name) from information_schema.tables where table_schema = 'test_schema' and table_name like 'out%'"); got != "out_csv:VIEW,out_default:VIEW,out_glue:VIEW,out_json:VIEW,out_part:VIEW,out_part2:VIEW,out_pq:VIEW" {
		t.Errorf("relations: %s (no __dbt_tmp table may be left)", got)
	}
	// the views read files with readers built into DuckDB: no extension to install
	if got := q("select string_agg(extension_name || ':' || install_mode, ',' order by extension_name) from duckdb_extensions() where extension_name in ('parquet', 'json')"); got != "json:STATICALLY_LINKED,parquet:STATICALLY_LINKED" {
		t.Errorf("readers: %s", got)
	}
	if got := q("select sql from duckdb_views() where view_name = 'out_pq'"); !strings.Contains(got, "read_parquet('"+filepath.ToSlash(filepath.Join(dir, "out/pq.parquet"))+"')") {
		t.Errorf("out_pq view: %s", got)
	}
}
