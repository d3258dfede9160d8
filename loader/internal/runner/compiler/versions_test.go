package compiler_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// versionedProject has model dim in three versions: v1 (dim_v1.sql), v2
// the latest (the unsuffixed dim.sql), v3 a prerelease defined_in
// dim_three.sql with its own config; columns include/exclude the
// entry's; models read it unpinned and pinned.
var versionedProject = map[string]string{
	"models/dim_v1.sql":     "select 1 as id, 'a' as old_col",
	"models/dim.sql":        "select 1 as id, 'b' as new_col",
	"models/dim_three.sql":  "select 1 as id",
	"models/use_latest.sql": "select * from {{ ref('dim') }}",
	"models/use_v1.sql":     "select * from {{ ref('dim', v=1) }}",
	"models/use_v3.sql":     "select * from {{ ref('dim', version=3) }}",
	"models/schema.yml": `version: 2
models:
  - name: dim
    latest_version: 2
    description: the dim
    config:
      materialized: table
      tags: [d]
    columns:
      - name: id
        tests: [unique]
      - name: old_col
    versions:
      - v: 1
        deprecation_date: 2020-01-01
        columns:
          - include: all
      - v: 2
        columns:
          - include: all
            exclude: [old_col]
          - name: new_col
            tests: [not_null]
      - v: 3
        defined_in: dim_three
        description: next
        config:
          materialized: view
`,
}

// TestModelVersions: each version is a model of its own as dbt makes it
// (model.mem.dim.v<N>, fqn ending dim, v<N>, relation dim_v<N>), takes
// the entry's description, config, columns and tests with its own
// winning, and ref('dim') reads the latest_version while v= / version=
// pin one. Before, versions: was warned as not applied and a pinned ref
// was an error.
func TestModelVersions(t *testing.T) {
	m, diags := compilertest.Compile(t, versionedProject)
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	for _, gone := range []string{"model.mem.dim", "model.mem.dim_v1", "model.mem.dim_three"} {
		if m.Nodes[gone] != nil {
			t.Errorf("%s should be a version, not a model of its own", gone)
		}
	}
	for v, want := range map[string]string{"1": "table main.dim_v1 the dim [id old_col]", "2": "table main.dim_v2 the dim [id new_col]", "3": "view main.dim_v3 next [id old_col]"} {
		n := m.Nodes["model.mem.dim.v"+v]
		if n == nil {
			t.Fatalf("no model.mem.dim.v%s", v)
		}
		cols := []string{}
		for c := range n.Columns {
			cols = append(cols, c)
		}
		slices.Sort(cols)
		if got := fmt.Sprintf("%s %s %s %v", n.Config.Materialized, n.Relation, n.Description, cols); got != want {
			t.Errorf("v%s: %s, want %s", v, got, want)
		}
		if strings.Join(n.FQN, ".") != "mem.dim.v"+v || n.Name != "dim" || n.Version != v || n.LatestVersion != "2" || !slices.Contains(n.Tags, "d") {
			t.Errorf("v%s: fqn %v name %s version %s latest %s tags %v", v, n.FQN, n.Name, n.Version, n.LatestVersion, n.Tags)
		}
	}
	for id, want := range map[string]string{"use_latest": "main.dim_v2", "use_v1": "main.dim_v1", "use_v3": "main.dim_v3"} {
		n := m.Nodes["model.mem."+id]
		dep := "model.mem.dim.v" + want[len(want)-1:]
		if !strings.Contains(n.CompiledCode, "from "+want) || !slices.Equal(n.DependsOn.Nodes, []string{dep}) {
			t.Errorf("%s compiled to %q, depends on %v; want %s, %s", id, n.CompiledCode, n.DependsOn.Nodes, want, dep)
		}
	}
	var tests []string
	for id, n := range m.Nodes {
		if n.ResourceType == "test" {
			tests = append(tests, id)
		}
	}
	slices.Sort(tests)
	if want := []string{"test.mem.not_null_dim_v2_new_col", "test.mem.unique_dim_v1_id", "test.mem.unique_dim_v2_id", "test.mem.unique_dim_v3_id"}; !slices.Equal(tests, want) {
		t.Errorf("tests %v, want %v", tests, want)
	}
	if got := m.Nodes["test.mem.unique_dim_v2_id"].CompiledCode; !strings.Contains(got, "from main.dim_v2 as model") {
		t.Errorf("unique_dim_v2_id reads %q", got)
	}
	for sel, want := range map[string]string{"dim": "v1 v2 v3", "dim.v1": "v1", "dim_v2": "v2", "version:latest": "v2", "version:prerelease": "v3", "version:old": "v1"} {
		ids, err := m.Select([]string{sel}, nil, "model")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, id := range ids {
			if strings.HasPrefix(id, "model.mem.dim.") {
				got = append(got, strings.TrimPrefix(id, "model.mem.dim."))
			}
		}
		slices.Sort(got)
		if strings.Join(got, " ") != want {
			t.Errorf("-s %s selects versions %v, want %s", sel, got, want)
		}
	}
}

// TestModelVersionsInManifest: manifest.json has what dbt writes for a
// versioned model: version, latest_version, deprecation_date on each
// version node, the version in a pinned ref, and a test's model
// argument ref('dim', version='2').
func TestModelVersionsInManifest(t *testing.T) {
	m, diags := compilertest.Compile(t, versionedProject)
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	v1 := m.NodeDoc(m.Nodes["model.mem.dim.v1"])
	v2 := m.NodeDoc(m.Nodes["model.mem.dim.v2"])
	if v1["version"] != 1 || v1["latest_version"] != 2 || v1["deprecation_date"] != "2020-01-01T00:00:00Z" || v2["version"] != 2 || v2["deprecation_date"] != nil {
		t.Errorf("v1 %v/%v/%v, v2 %v/%v", v1["version"], v1["latest_version"], v1["deprecation_date"], v2["version"], v2["deprecation_date"])
	}
	refs := fmt.Sprint(m.NodeDoc(m.Nodes["model.mem.use_v1"])["refs"])
	if refs != "[map[name:dim package:<nil> version:1]]" {
		t.Errorf("use_v1 refs %s", refs)
	}
	md := m.NodeDoc(m.Nodes["test.mem.unique_dim_v2_id"])["test_metadata"].(map[string]any)
	if got := md["kwargs"].(map[string]any)["model"]; got != "{{ get_where_subquery(ref('dim', version='2')) }}" {
		t.Errorf("kwargs.model %v", got)
	}
}

// TestVersionedRefMistakes: a pinned version the model does not have,
// and a pin on a model without versions, are errors at the call; a
// version whose file is missing is a warning at its YAML line.
func TestVersionedRefMistakes(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/dim_v1.sql": "select 1 as id",
		"models/plain.sql":  "select 1 as id",
		"models/use.sql":    "select *\nfrom {{ ref('dim', v=2) }}",
		"models/old.sql":    "select * from {{ ref('plain', version=1) }}",
		"models/schema.yml": "version: 2\nmodels:\n  - name: dim\n    versions:\n      - v: 1\n      - v: 3\n",
	})
	got := strings.Join(compilertest.Strings(diags), "\n")
	for _, want := range []string{`models/use.sql:2:9: ref("dim", v=2): model dim has no version 2 (versions: 1)`, `models/old.sql:1:18: ref("plain", v=1): plain has no versions`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	warns := strings.Join(compilertest.Strings(m.Warnings), "\n")
	if !strings.Contains(warns, "models/schema.yml:6:9: model dim version 3: no model file dim_v3.sql") {
		t.Errorf("warnings:\n%s", warns)
	}
}

// TestDeprecatedVersionsWarn: as dbt's DeprecatedModel and
// DeprecatedReference / UpcomingReferenceDeprecation warnings, a version
// past its deprecation_date is a warning at the key, and a ref to a
// version with a deprecation_date one at the call.
func TestDeprecatedVersionsWarn(t *testing.T) {
	files := map[string]string{"models/soon.sql": "select * from {{ ref('dim', v=3) }}"}
	for k, v := range versionedProject {
		files[k] = v
	}
	files["models/schema.yml"] = strings.Replace(files["models/schema.yml"], "        description: next\n", "        description: next\n        deprecation_date: 2999-01-01\n", 1)
	m, diags := compilertest.Compile(t, files)
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	warns := strings.Join(compilertest.Strings(m.Warnings), "\n")
	for _, want := range []string{
		"models/schema.yml:15:9: model.mem.dim.v1 passed its deprecation date 2020-01-01T00:00:00Z",
		"models/use_v1.sql:1:18: use_v1 reads dim.v1, deprecated on 2020-01-01T00:00:00Z (its latest version is v2)",
		"models/soon.sql:1:18: soon reads dim.v3, slated for deprecation on 2999-01-01T00:00:00Z",
	} {
		if !strings.Contains(warns, want) {
			t.Errorf("missing %q in\n%s", want, warns)
		}
	}
	if strings.Contains(warns, "use_latest") {
		t.Errorf("use_latest reads v2, not deprecated:\n%s", warns)
	}
}

// TestRelationshipsToAVersion: a relationships test's to: may pin a
// version (ref('dim', v=1)), as dbt renders it; an unpinned one reads the
// latest. Before, to: had to be ref('model') and a pin was refused.
func TestRelationshipsToAVersion(t *testing.T) {
	files := map[string]string{
		"models/fact.sql": "select 1 as dim_id",
		"models/fact.yml": "version: 2\nmodels:\n  - name: fact\n    columns:\n      - name: dim_id\n        tests:\n" +
			"          - relationships: {to: \"ref('dim', v=1)\", field: id}\n          - relationships: {to: \"ref('dim')\", field: id}\n",
	}
	for k, v := range versionedProject {
		files[k] = v
	}
	m, diags := compilertest.Compile(t, files)
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	var got []string
	for _, n := range m.Nodes {
		if n.TestMetadata != nil && n.TestMetadata.Name == "relationships" {
			got = append(got, fmt.Sprint(n.DependsOn.Nodes))
			if !strings.Contains(n.CompiledCode, "left join main.dim_v") {
				t.Errorf("%s compiled to %s", n.UniqueID, n.CompiledCode)
			}
		}
	}
	slices.Sort(got)
	if want := "[[model.mem.dim.v1 model.mem.fact] [model.mem.dim.v2 model.mem.fact]]"; fmt.Sprint(got) != want {
		t.Errorf("relationships depend on %v, want %s", got, want)
	}
}

// TestVersionsTakeProjectConfigsByFqn: project-file configs apply to a
// version by its fqn as dbt does after patching it: models: dim: sets every
// version, dim: v1: one. Before, they applied by the file's name (dim_v1).
func TestVersionsTakeProjectConfigsByFqn(t *testing.T) {
	files := map[string]string{"project.yaml": "version: 1\nname: mem\nmodels:\n  dim:\n    +materialized: table\n    v1:\n      +tags: [old]\n"}
	for k, v := range versionedProject {
		files[k] = v
	}
	files["models/schema.yml"] = strings.Replace(files["models/schema.yml"], "      materialized: table\n", "", 1)
	m, diags := compilertest.Compile(t, files)
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	for v, want := range map[string]string{"1": "table [d old]", "2": "table [d]", "3": "view [d]"} {
		n := m.Nodes["model.mem.dim.v"+v]
		tags := append([]string(nil), n.Tags...)
		slices.Sort(tags)
		if got := fmt.Sprintf("%s %v", n.Config.Materialized, tags); got != want {
			t.Errorf("v%s: %s, want %s", v, got, want)
		}
	}
}

// TestVersionTestsRenderWhenBuilt: a version's own tests are rendered
// when the test is built, as the entry's are (a where with ref() is an
// error there, an argument keeps its native type); before, everything
// under versions: was rendered early as YAML text.
func TestVersionTestsRenderWhenBuilt(t *testing.T) {
	_, diags := compilertest.Compile(t, map[string]string{
		"project.yaml":      "version: 1\nname: mem\nvars:\n  ok_values: [a, b]\n",
		"models/dim_v1.sql": "select 'a' as kind, 1 as id",
		"models/other.sql":  "select 1 as id",
		"models/schema.yml": "version: 2\nmodels:\n  - name: dim\n    versions:\n      - v: 1\n        columns:\n          - name: kind\n            tests:\n" +
			"              - accepted_values: {values: \"{{ var('ok_values') }}\"}\n" +
			"              - not_null: {config: {where: \"id in (select id from {{ ref('other') }})\"}}\n",
	})
	got := strings.Join(compilertest.Strings(diags), "\n")
	if !strings.Contains(got, "ref() is not available in a test's where config") || strings.Contains(got, "accepted_values") {
		t.Errorf("diagnostics:\n%s", got)
	}
}
