package runner

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestExternalRootDefaultLocations: a model without a location goes where
// dbt-duckdb's external_location puts it: <external_root>/<identifier>.<format>,
// or the folder <external_root>/<identifier> when partition_by is set; a
// remote external_root is refused like a remote location, not turned into
// a local folder named "s3:".
func TestExternalRootDefaultLocations(t *testing.T) {
	ext := func(cfg string) string {
		return "{{ config(materialized='external'" + cfg + ") }}\nselect 1 as id, 'a' as name"
	}
	files := shapeProject("dx", map[string]string{
		"models/plain.sql": ext(""),
		"models/parts.sql": ext(", options={'partition_by': 'name'}"),
	})
	files["profiles.yml"] = strings.Replace(files["profiles.yml"], "      schema:", "      external_root: ext_out\n      schema:", 1)
	dir := writeProbe(t, files)
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for id, want := range map[string]string{"model.dx.plain": "ext_out/plain.parquet", "model.dx.parts": "ext_out/parts"} {
		n := m.Nodes[id]
		if n == nil || n.Config.External == nil {
			t.Fatalf("%s: no external config", id)
		}
		if got, w := n.Config.External.Path, filepath.ToSlash(filepath.Join(dir, want)); got != w {
			t.Errorf("%s written to %q, want %q", id, got, w)
		}
	}

	files["profiles.yml"] = strings.Replace(files["profiles.yml"], "external_root: ext_out", "external_root: s3://bucket/out", 1)
	dir = writeProbe(t, files)
	_, diags = parseProbe(t, dir)
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	if len(got) != 2 || !strings.Contains(got[0], `"s3://bucket/out/`) || !strings.Contains(got[0], "remote") {
		t.Errorf("remote external_root: %q, want the remote location refused for both models", got)
	}
}
