package compiler_test

import (
	"fmt"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestMetaMergesAcrossLayers: meta written in the project file, a YAML
// config and the model's config() merges as dbt's (MergeBehavior.Update,
// the more specific key wins); a dict written in config() counts (it was
// dropped silently, and each layer replaced the one before).
func TestMetaMergesAcrossLayers(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml": "version: 1\nname: mem\nmodels:\n  +meta: {owner: a, tier: 0}\n",
		"models/s.yml": "version: 2\nmodels:\n  - name: m\n    config:\n      meta: {team: t}\n",
		"models/m.sql": "{{ config(meta={'tier': 1}) }}\nselect 1 as id\n",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	got := m.Nodes["model.mem.m"].Config.Meta
	if fmt.Sprintf("%v %v %v", got["owner"], got["team"], got["tier"]) != "a t 1" || len(got) != 3 {
		t.Errorf("meta %v, want owner a, team t, tier 1", got)
	}
}
