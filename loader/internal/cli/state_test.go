package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateSelectors: against a previous run's manifest (--state DIR),
// state:new selects added nodes, state:modified those whose SQL or config
// changed (and the new ones), with + for their children.
func TestStateSelectors(t *testing.T) {
	dir := tinyProject(t)
	models := filepath.Join(dir, "models", "marts")
	os.MkdirAll(models, 0o755)
	write := func(name, body string) { os.WriteFile(filepath.Join(models, name), []byte(body), 0o644) }
	write("a.sql", "select 1 as id\n")
	write("b.sql", "select * from {{ ref('a') }}\n")
	write("c.sql", "select 3 as id\n")
	write("d.sql", "select 4 as id\n")
	must(t, dir, "compile")
	state := filepath.Join(t.TempDir(), "state")
	os.CopyFS(state, os.DirFS(filepath.Join(dir, "target")))

	write("a.sql", "select 1 as id, 'changed' as note\n")                                        // body
	write("schema.yml", "version: 2\nmodels:\n  - name: c\n    config: {materialized: table}\n") // config
	write("e.sql", "select 5 as id\n")                                                           // new
	names := func(out string) string {
		var n []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if f := strings.Fields(l); len(f) >= 2 {
				n = append(n, f[1])
			}
		}
		return strings.Join(n, " ")
	}
	for sel, want := range map[string]string{
		"state:new":              "marts.e",
		"state:modified":         "marts.a marts.c marts.e",
		"state:modified.body":    "marts.a marts.e",
		"state:modified.configs": "marts.c marts.e",
		"state:modified+":        "marts.a marts.b marts.c marts.e",
	} {
		out := must(t, dir, "ls", "--resource-type", "model", "-s", sel, "--state", state)
		if got := names(out); got != want {
			t.Errorf("-s %s selected %q, want %q", sel, got, want)
		}
	}
	if out, code := run(t, dir, "ls", "-s", "state:modified"); code != 2 || !strings.Contains(out, "--state") {
		t.Fatalf("state: without --state should say it needs one (exit 2), got %d:\n%s", code, out)
	}
}
