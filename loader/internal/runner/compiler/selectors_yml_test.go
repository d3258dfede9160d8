package compiler_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// selectorsProject: raw → stg → mart → report, plus other (tagged
// nightly) and a not_null test on mart.
var selectorsProject = map[string]string{
	"project.yaml":            "version: 1\nname: sel\n",
	"models/staging/raw.sql":  "select 1 as id",
	"models/staging/stg.sql":  "select * from {{ ref('raw') }}",
	"models/marts/mart.sql":   "{{ config(tags=['nightly']) }} select * from {{ ref('stg') }}",
	"models/marts/report.sql": "select * from {{ ref('mart') }}",
	"models/marts/other.sql":  "{{ config(tags=['nightly'], materialized='table') }} select 2 as id",
	"models/marts/schema.yml": "version: 2\nmodels:\n  - name: mart\n    columns:\n      - name: id\n        tests: [not_null]\n",
}

func withSelectors(yml string) map[string]string {
	files := map[string]string{"selectors.yml": yml}
	for k, v := range selectorsProject {
		files[k] = v
	}
	return files
}

// TestSelectorsYAML: selectors.yml selections resolve as dbt's do (the
// file was only warned about: --selector did not exist).
func TestSelectorsYAML(t *testing.T) {
	m, diags := compilertest.Compile(t, withSelectors(`selectors:
  - name: nightly_up
    description: nightly models and one level above
    definition:
      method: tag
      value: nightly
      parents: true
      parents_depth: 1
  - name: marts_tables
    definition:
      intersection:
        - path:models/marts
        - method: config.materialized
          value: table
  - name: all_but_staging
    default: true
    definition:
      union:
        - method: fqn
          value: "*"
        - exclude:
            - staging
  - name: reuse
    definition:
      union:
        - method: selector
          value: marts_tables
        - tag: nightly
  - name: around_stg
    definition:
      method: fqn
      value: stg
      childrens_parents: true
      indirect_selection: empty
  - name: down1
    definition: "stg+1"
  - name: mart_only
    definition:
      method: fqn
      value: mart
      indirect_selection: empty
`))
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	if len(m.Warnings) > 0 {
		t.Errorf("warnings: %v", m.Warnings)
	}
	if m.DefaultSelector != "all_but_staging" {
		t.Errorf("default selector %q", m.DefaultSelector)
	}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"nightly_up", []string{"model.sel.mart", "model.sel.other", "model.sel.stg", "test.sel.not_null_mart_id"}},
		{"marts_tables", []string{"model.sel.other"}},
		{"all_but_staging", []string{"model.sel.mart", "model.sel.other", "model.sel.report", "test.sel.not_null_mart_id"}},
		{"reuse", []string{"model.sel.mart", "model.sel.other", "test.sel.not_null_mart_id"}},
		{"around_stg", []string{"model.sel.mart", "model.sel.raw", "model.sel.report", "model.sel.stg", "test.sel.not_null_mart_id"}},
		{"mart_only", []string{"model.sel.mart"}},
		{"down1", []string{"model.sel.mart", "model.sel.stg", "test.sel.not_null_mart_id"}},
	} {
		got, err := m.SelectSelector(tc.name, "eager", compiler.Model, compiler.Test)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		for i, id := range got {
			if strings.HasPrefix(id, "test.") {
				got[i] = id[:strings.LastIndex(id, "_id")+3] // drop a hash suffix, if any
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if _, err := m.SelectSelector("nope", "eager"); err == nil || !strings.Contains(err.Error(), "nightly_up") {
		t.Errorf("an unknown selector should name the defined ones: %v", err)
	}
	doc := m.ManifestDoc()
	if s, ok := doc.Selectors["reuse"].(map[string]any); !ok || s["definition"] == nil {
		t.Errorf("manifest.json selectors: %v", doc.Selectors)
	}
}

// TestSelectorsYAMLMistakes: a malformed selector is an error at its line;
// a method docket lacks is a warning there (and an error only when used).
func TestSelectorsYAMLMistakes(t *testing.T) {
	_, diags := compilertest.Compile(t, withSelectors("selectors:\n  - name: a\n    default: true\n    definition: mart\n  - name: b\n    default: true\n    definition: stg\n  - name: c\n    definition:\n      method: selector\n      value: later\n"))
	got := strings.Join(compilertest.Strings(diags), "\n")
	for _, want := range []string{"selectors.yml:5:5: selectors \"a\" and \"b\" both say default: true", "selectors.yml:10:7: selector \"later\" is not defined above"} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, got)
		}
	}
	m, diags := compilertest.Compile(t, withSelectors("selectors:\n  - name: changed\n    definition:\n      method: state\n      value: modified\n"))
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	if len(m.Warnings) != 1 || m.Warnings[0].Path != "selectors.yml" || m.Warnings[0].Line != 4 {
		t.Errorf("want one warning at selectors.yml:4: %v", m.Warnings)
	}
	if _, err := m.SelectSelector("changed", "eager"); err == nil || !strings.Contains(err.Error(), "selectors.yml:4") {
		t.Errorf("using it is an error naming its line: %v", err)
	}
}

// TestSelectorDepthNeedsItsFlag: as dbt's collect_specified_neighbors, a
// parents_depth / children_depth selects relatives only with parents: true
// / children: true; without it the depth is warned at its line (it took
// the nightly models' parents).
func TestSelectorDepthNeedsItsFlag(t *testing.T) {
	m, diags := compilertest.Compile(t, withSelectors(`selectors:
  - name: depth_only
    definition:
      method: tag
      value: nightly
      parents_depth: 1
      children_depth: 1
      indirect_selection: empty
  - name: with_flag
    definition:
      method: tag
      value: nightly
      parents: true
      parents_depth: 1
      indirect_selection: empty
`))
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"depth_only", []string{"model.sel.mart", "model.sel.other"}},
		{"with_flag", []string{"model.sel.mart", "model.sel.other", "model.sel.stg"}},
	} {
		got, err := m.SelectSelector(tc.name, "eager", compiler.Model)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v %v, want %v", tc.name, got, err, tc.want)
		}
	}
	var lines []int
	for _, w := range m.Warnings {
		if w.Path == "selectors.yml" && strings.Contains(w.Msg, "depth is not applied without") {
			lines = append(lines, w.Line)
		}
	}
	if !reflect.DeepEqual(lines, []int{6, 7}) {
		t.Errorf("want warnings at selectors.yml:6 and :7, got %v", m.Warnings)
	}
}
