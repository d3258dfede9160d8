package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSelectorFlagAndDefault: --selector NAME selects what selectors.yml
// names; with no -s/--exclude/--selector the default: true selector is used
// (and said); --selector with -s is a usage error.
func TestSelectorFlagAndDefault(t *testing.T) {
	dir := tinyProject(t)
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	write("models/marts/a.sql", "select 1 as id\n")
	write("models/marts/b.sql", "select * from {{ ref('a') }}\n")
	write("models/marts/c.sql", "{{ config(tags=['late']) }} select 3 as id\n")
	write("selectors.yml", "selectors:\n  - name: late\n    definition: {tag: late}\n  - name: early\n    default: true\n    definition:\n      union:\n        - a+\n        - exclude: [b]\n")
	names := func(out string) string {
		var n []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "model" {
				n = append(n, f[1])
			}
		}
		return strings.Join(n, " ")
	}
	if out := must(t, dir, "ls", "--resource-type", "model", "--selector", "late"); names(out) != "marts.c" {
		t.Errorf("--selector late: %q\n%s", names(out), out)
	}
	out := must(t, dir, "ls", "--resource-type", "model")
	if names(out) != "marts.a" || !strings.Contains(out, `default selector "early"`) {
		t.Errorf("default selector: %q\n%s", names(out), out)
	}
	if out := must(t, dir, "ls", "--resource-type", "model", "-s", "b"); names(out) != "marts.b" {
		t.Errorf("-s overrides the default selector: %q", names(out))
	}
	if out, code := run(t, dir, "ls", "--selector", "late", "-s", "a"); code != 2 || !strings.Contains(out, "cannot be combined") {
		t.Errorf("--selector with -s: exit %d\n%s", code, out)
	}
	if out, code := run(t, dir, "build", "--selector", "nope"); code != 2 || !strings.Contains(out, "late") {
		t.Errorf("unknown selector: exit %d\n%s", code, out)
	}
	out = must(t, dir, "build", "--selector", "late")
	if !strings.Contains(out, "marts.c") || strings.Contains(out, "marts.a ") {
		t.Errorf("build --selector late ran other models:\n%s", out)
	}
}
