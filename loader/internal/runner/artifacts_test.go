package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// dbtSchemas is ../shared/dbt/schemas (dbt's artifact JSON Schemas).
const dbtSchemas = "../../../../shared/dbt/schemas"

var (
	schemaOnce sync.Once
	schemas    map[string]*jsonschema.Schema // "manifest.json", "run_results.json"
	schemaErr  error
)

// artifactSchemas compiles dbt's manifest v12 and run-results v6 schemas
// once; nil when ../shared is absent.
func artifactSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	schemaOnce.Do(func() {
		dir, _ := filepath.Abs(dbtSchemas)
		if _, err := os.Stat(filepath.Join(dir, "manifest", "v12.json")); err != nil {
			return
		}
		c := jsonschema.NewCompiler()
		schemas = map[string]*jsonschema.Schema{}
		for file, rel := range map[string]string{"manifest.json": "manifest/v12.json", "run_results.json": "run-results/v6.json"} {
			s, err := c.Compile(filepath.Join(dir, rel))
			if err != nil {
				schemaErr = err
				return
			}
			schemas[file] = s
		}
	})
	if schemaErr != nil {
		t.Fatal(schemaErr)
	}
	return schemas
}

// validateArtifact checks one artifact document against dbt's schema
// (name is "manifest.json" or "run_results.json"); nothing when ../shared
// is absent.
func validateArtifact(t *testing.T, name string, doc []byte) {
	t.Helper()
	sch := artifactSchemas(t)[name]
	if sch == nil {
		return
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(doc)))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		msg := err.Error()
		if len(msg) > 4000 {
			msg = msg[:4000] + " ..."
		}
		t.Errorf("%s does not validate against dbt's schema: %s", name, msg)
	}
}

// validateTarget checks the manifest.json and run_results.json (when
// present) in a target folder.
func validateTarget(t *testing.T, target string) {
	t.Helper()
	for _, name := range []string{"manifest.json", "run_results.json"} {
		b, err := os.ReadFile(filepath.Join(target, name))
		if err != nil {
			if name == "manifest.json" {
				t.Fatal(err)
			}
			continue
		}
		validateArtifact(t, name, b)
	}
}

// validateManifest checks m's manifest document.
func validateManifest(t *testing.T, m *compiler.Manifest) {
	t.Helper()
	b, err := json.Marshal(m.ManifestDoc())
	if err != nil {
		t.Fatal(err)
	}
	validateArtifact(t, "manifest.json", b)
}

// TestArtifactSchemasBite: the validation the fixtures go through rejects
// what dbt's schemas reject (docket's old extras), so a pass means
// something.
func TestArtifactSchemasBite(t *testing.T) {
	s := artifactSchemas(t)
	if s == nil {
		t.Skip("../shared/dbt/schemas is absent")
	}
	m := parseFixture(t, "testdata/basic.txtar")
	b, _ := json.Marshal(m.ManifestDoc())
	var doc map[string]any
	json.Unmarshal(b, &doc)
	if v, _ := jsonschema.UnmarshalJSON(strings.NewReader(string(b))); s["manifest.json"].Validate(v) != nil {
		t.Fatalf("basic's manifest should validate")
	}
	doc["metadata"].(map[string]any)["generator"] = "docket"
	b, _ = json.Marshal(doc)
	if v, _ := jsonschema.UnmarshalJSON(strings.NewReader(string(b))); s["manifest.json"].Validate(v) == nil {
		t.Fatalf("a manifest with metadata.generator should not validate")
	}
}

// TestManifestEveryKind: a project with every node kind and every YAML key
// docket keeps without acting on; its manifest validates and holds each
// in its dbt place.
func TestManifestEveryKind(t *testing.T) {
	m := parseFixture(t, "testdata/artifacts.fixture")
	validateManifest(t, m)
	doc := m.ManifestDoc()
	counts := map[string]int{"exposures": len(doc.Exposures), "groups": len(doc.Groups), "unit_tests": len(doc.UnitTests),
		"semantic_models": len(doc.SemanticModels), "metrics": len(doc.Metrics), "saved_queries": len(doc.SavedQueries),
		"disabled": len(doc.Disabled)}
	want := map[string]int{"exposures": 1, "groups": 1, "unit_tests": 1, "semantic_models": 1, "metrics": 5, "saved_queries": 1, "disabled": 3}
	for k, n := range want {
		if counts[k] != n {
			t.Errorf("%s: %d in the manifest, want %d", k, counts[k], n)
		}
	}
	exp := doc.Exposures["exposure.arts.weekly_report"]
	if deps := exp["depends_on"].(map[string]any)["nodes"].([]string); strings.Join(deps, ",") != "model.arts.facts,source.arts.raw.documents" {
		t.Errorf("exposure depends on %v", deps)
	}
	run := doc.Metrics["metric.arts.running"]["type_params"].(map[string]any)
	if w := run["cumulative_type_params"].(map[string]any)["window"].(map[string]any); w["count"] != 7 || w["granularity"] != "day" {
		t.Errorf("cumulative window: %v", w)
	}
	if deps := doc.Metrics["metric.arts.n_facts"]["depends_on"].(map[string]any)["nodes"].([]string); strings.Join(deps, ",") != "semantic_model.arts.facts" {
		t.Errorf("n_facts depends on %v, want the semantic model defining its measure", deps)
	}
	if ch := doc.ChildMap["semantic_model.arts.facts"]; !strings.Contains(strings.Join(ch, ","), "metric.arts.n_facts") {
		t.Errorf("the semantic model's children lack its metric: %v", ch)
	}
	if deps := doc.Metrics["metric.arts.growth"]["depends_on"].(map[string]any)["nodes"].([]string); strings.Join(deps, ",") != "metric.arts.n_facts" {
		t.Errorf("growth depends on %v, want its input metric", deps)
	}
	if doc.Macros["macro.arts.double"]["macro_sql"] != "{% macro double(x) %}({{ x }} * 2){% endmacro %}" {
		t.Errorf("macro_sql: %q", doc.Macros["macro.arts.double"]["macro_sql"])
	}
	if ch := doc.ChildMap["model.arts.facts"]; !strings.Contains(strings.Join(ch, ","), "exposure.arts.weekly_report") {
		t.Errorf("facts' children lack the exposure: %v", ch)
	}
	if src := doc.Sources["source.arts.raw.documents"]; src["source_description"] != "raw tables" {
		t.Errorf("source_description: %v", src["source_description"])
	}
	for _, id := range []string{"source.arts.raw.retired", "source.arts.old_feed.events"} {
		if d := doc.Disabled[id]; len(d) != 1 || d[0].(map[string]any)["config"].(map[string]any)["enabled"] != false {
			t.Errorf("%s should be a disabled source: %v", id, d)
		}
	}
	if _, ok := doc.Disabled["model.arts.old"]; !ok {
		t.Errorf("disabled: %v", doc.Disabled)
	}
}

// TestManifestOddYAML: kept YAML in shapes docket does not know (or that
// dbt would refuse) never breaks the manifest: it still validates.
func TestManifestOddYAML(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql": "select 1 as id",
		"models/m/odd.yml": `version: 2
exposures:
  - {name: e1, type: website, maturity: huge, owner: 7, depends_on: "ref('a')"}
  - {name: e2}
groups:
  - {name: g}
metrics:
  - {name: m1, type: weird, type_params: oops, filter: [a, 1]}
  - {name: m2, type_params: {measure: {name: x, fill_nulls_with: zero}, window: forever, metrics: [3, {alias: y}]}}
semantic_models:
  - {name: s1, model: a, entities: x, measures: [x, {agg: nope}], dimensions: [{type_params: {time_granularity: eon}}]}
saved_queries:
  - {name: q1, query_params: 5, exports: [x]}
unit_tests:
  - {name: u1, given: [{input: "ref('a')", rows: 3}], expect: {rows: [1, 2]}}
  - name: 12
    model: a
  - {model: a}
`,
	})
	m, diags := parseProbe(t, dir)
	// unit tests run (unittest.go): one without a model is a mistake
	if len(diags) != 1 || diags[0].String() != "models/m/odd.yml:15:5: unit test u1: no model: a unit test names the model it tests (model: name)" {
		t.Fatalf("diagnostics: %v", diags)
	}
	if artifactSchemas(t) == nil {
		t.Skip("../shared/dbt/schemas is absent")
	}
	validateManifest(t, m)
	d := m.ManifestDoc()
	if len(m.Warnings) == 0 || !strings.Contains(m.Warnings[len(m.Warnings)-1].Msg, "unit_tests: an entry without a name is not kept") {
		t.Errorf("a unit test without a name should be a warning: %v", m.Warnings)
	}
	if len(d.Exposures) != 2 || len(d.Metrics) != 2 || len(d.UnitTests) != 2 || len(d.SemanticModels) != 1 {
		t.Errorf("kept %d exposures, %d metrics, %d unit tests, %d semantic models", len(d.Exposures), len(d.Metrics), len(d.UnitTests), len(d.SemanticModels))
	}
}
