package compiler_test

import (
	"slices"
	"strings"
	"testing"
)

// TestDbtProjectSilentSettings: settings a typical dbt 1.7-1.9 project
// writes that docket took without a word (found by building such a
// project): a generic test's name: (dbt's custom test name) was passed
// to the test as an argument and the test kept the synthesized name; a
// YAML docs: property (show: false, node_color) of a model or column was
// dropped; and a config path under the project's name that no node
// reaches (a renamed folder, tests: p: gone:) applied to nothing.
func TestDbtProjectSilentSettings(t *testing.T) {
	m := compileDir(t, map[string]string{
		"dbt_project.yml": `name: p
models:
  p:
    marts:
      +materialized: table
    old_marts:
      +materialized: view
tests:
  p:
    gone:
      +severity: warn
    marts:
      +severity: warn
`,
		"models/marts/m.sql": "select 1 as id\n",
		"models/marts/m.yml": `version: 2
models:
  - name: m
    docs:
      show: false
    columns:
      - name: id
        docs: {node_color: red}
        data_tests:
          - unique:
              name: m_id_is_unique
              config: {severity: error}
`,
	})
	if n := m.Nodes["test.p.m_id_is_unique"]; n == nil {
		var tests []string
		for id := range m.Nodes {
			if strings.HasPrefix(id, "test.") {
				tests = append(tests, id)
			}
		}
		t.Errorf("no test named m_id_is_unique: %v", tests)
	} else if _, arg := n.TestMetadata.Kwargs["name"]; arg || n.Alias != "m_id_is_unique" {
		t.Errorf("custom name: alias %q, kwargs %v", n.Alias, n.TestMetadata.Kwargs)
	}
	var got []string
	for _, w := range m.Warnings {
		got = append(got, w.String())
	}
	for _, want := range []string{
		"dbt_project.yml:6:5: models: p.old_marts is a config path no model reaches",
		"dbt_project.yml:10:5: tests: p.gone is a config path no test reaches",
		`models/marts/m.yml:4:5: model m: key "docs" (show, node_color) is read but not applied`,
		`models/marts/m.yml:8:9: column m.id: key "docs" (show, node_color) is read but not applied`,
	} {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, want) }) {
			t.Errorf("no warning %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
	for _, g := range got {
		if strings.Contains(g, "p.marts") {
			t.Errorf("a reached path warned: %s", g)
		}
	}
}
