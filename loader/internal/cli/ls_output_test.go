package cli_test

import (
	"strings"
	"testing"
)

// TestLsOutputForms: docket ls --output takes dbt ls's forms: selector
// (the fqn joined by dots; source:pkg.source.table), name (source.table
// for a source), path (the node's file) and json (one object a line, dbt's
// keys or --output-keys, keys sorted, json.dumps's ", " and ": ").
// Before, --output was "flag provided but not defined": a CI script
// reading dbt ls --output json stopped.
func TestLsOutputForms(t *testing.T) {
	dir := tinyProject(t)
	writeFiles(t, dir, map[string]string{
		"dbt_project.yml": "name: tiny\nversion: '1.0'\nprofile: tiny\n",
		"models/m/a.sql":  "select 1 as id, 'é' as word",
		"models/src.yml":  "version: 2\nsources:\n  - name: raw\n    tables:\n      - name: t\n",
	})
	lines := func(args ...string) string {
		var keep []string
		for _, l := range strings.Split(strings.TrimSpace(must(t, dir, append([]string{"ls"}, args...)...)), "\n") {
			if !strings.HasPrefix(l, "warning: ") && !strings.HasPrefix(l, "docket: ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--output", "selector"}, "tiny.m.a\nsource:tiny.raw.t"},
		{[]string{"--output", "name", "--resource-type", "source"}, "raw.t"},
		{[]string{"--output", "path", "-s", "a"}, "models/m/a.sql"},
		{[]string{"--output", "json", "-s", "a", "--output-keys", "name resource_type tags"}, `{"name": "a", "resource_type": "model", "tags": []}`},
	} {
		if got := lines(c.args...); got != c.want {
			t.Errorf("docket ls %s:\n%s\nwant:\n%s", strings.Join(c.args, " "), got, c.want)
		}
	}
	got := lines("--output", "json", "--resource-type", "source")
	for _, want := range []string{`{"config": {"enabled": true`, `"source_name": "raw"`, `"unique_id": "source.tiny.raw.t"`} {
		if !strings.Contains(got, want) || strings.Contains(got, `"fqn"`) {
			t.Errorf("docket ls --output json --resource-type source:\n%s\nwant %s and no fqn (dbt's keys)", got, want)
		}
	}
}
