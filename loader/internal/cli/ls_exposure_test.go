package cli_test

import (
	"strings"
	"testing"
)

// TestLsExposures: docket ls lists exposures as dbt ls does: -s
// exposure:x the exposure itself (it printed nothing), +exposure:x it
// and its parents, --resource-type exposure every one, and a plain ls
// names them with the rest (sorted by unique id, as dbt ls). A build of
// exposure:x runs nothing; the warning on exposures: says how they are
// selected.
func TestLsExposures(t *testing.T) {
	dir := tinyProject(t)
	writeFiles(t, dir, map[string]string{
		"dbt_project.yml": "name: tiny\nversion: '1.0'\nprofile: tiny\n",
		"models/a.sql":    "select 1 as id",
		"models/b.sql":    "select * from {{ ref('a') }}",
		"models/exp.yml": "version: 2\nexposures:\n  - name: page\n    type: dashboard\n    owner: {name: ana}\n    depends_on: [ref('b')]\n" +
			"  - name: nb\n    type: notebook\n    owner: {name: ana}\n    depends_on: [ref('a')]\n",
	})
	for _, c := range []struct{ args, want string }{
		{"-s exposure:page", "exposure\tpage\tdashboard"},
		{"-s +exposure:page", "exposure\tpage\tdashboard\nmodel\tmain.a\tview\nmodel\tmain.b\tview"},
		{"--resource-type exposure", "exposure\tnb\tnotebook\nexposure\tpage\tdashboard"},
		{"-s a+1", "exposure\tnb\tnotebook\nmodel\tmain.a\tview\nmodel\tmain.b\tview"},
		{"", "exposure\tnb\tnotebook\nexposure\tpage\tdashboard\nmodel\tmain.a\tview\nmodel\tmain.b\tview"},
	} {
		args := append([]string{"ls"}, strings.Fields(c.args)...)
		out := must(t, dir, args...)
		if !strings.Contains(out, "warning: models/exp.yml:2:1: exposures: read and kept in manifest.json; docket runs nothing for them, but selects them") {
			t.Errorf("docket ls %s: no warning on exposures:\n%s", c.args, out)
		}
		var lines []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.HasPrefix(l, "warning: ") {
				lines = append(lines, l)
			}
		}
		if got := strings.Join(lines, "\n"); got != c.want {
			t.Errorf("docket ls %s:\n%s\nwant:\n%s", c.args, got, c.want)
		}
	}
	if out := must(t, dir, "build", "-s", "exposure:page"); strings.Contains(out, "main.b") {
		t.Errorf("build -s exposure:page ran a node:\n%s", out)
	}
}
