package compiler_test

import (
	"strings"
	"testing"
)

// TestDocsPaths: dbt reads {% docs %} blocks from docs-paths when
// dbt_project.yml sets it, else from every source path (models, seeds,
// snapshots, analyses, macros, tests). docket warned docs-paths as "not
// acted on" and read only models/seeds/snapshots/macros/tests: a project
// keeping its blocks in docs/ (docs-paths: ["docs"]) or analyses/ failed
// every description that calls doc(), an error dbt does not give; and a
// block outside docs-paths was found where dbt says "Documentation for
// 'a_doc' not found".
func TestDocsPaths(t *testing.T) {
	for _, c := range []struct {
		project, md, want string // want "" = doc() is an error
	}{
		{"name: p\ndocs-paths: [\"docs\"]\n", "docs/blocks.md", "In docs/."},
		{"name: p\n", "analyses/notes.md", "In analyses/."},
		{"name: p\ndocs-paths: [\"docs\"]\n", "models/blocks.md", ""},
	} {
		text := "In " + strings.SplitAfter(c.md, "/")[0] + "."
		m, diags := parseDir(t, map[string]string{
			"dbt_project.yml": c.project,
			c.md:              "{% docs a_doc %}" + text + "{% enddocs %}\n",
			"models/a.sql":    "select 1 as id",
			"models/a.yml":    "version: 2\nmodels:\n  - name: a\n    description: \"{{ doc('a_doc') }}\"\n",
		})
		if c.want == "" {
			if len(diags) == 0 || !strings.Contains(strings.Join(diags, "\n"), "a_doc") {
				t.Errorf("%s outside docs-paths was read: %v", c.md, diags)
			}
			continue
		}
		if len(diags) > 0 {
			t.Fatalf("doc() of a block in %s: %v", c.md, diags)
		}
		if got := m.Nodes["model.p.a"].Description; got != c.want {
			t.Errorf("description %q, want %q (%s)", got, c.want, c.md)
		}
		for _, w := range m.Warnings {
			if strings.Contains(w.String(), "docs-paths") {
				t.Errorf("warning %q: docs-paths is applied", w)
			}
		}
	}
}
