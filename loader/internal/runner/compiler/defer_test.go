package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestDeferReturnsANewManifest: --defer's manifest resolves the deferred
// refs (inside an ephemeral model too) to the state's relations, while
// the manifest it came from keeps its own SQL; ref()'s parts are the
// state's relation's.
func TestDeferReturnsANewManifest(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/staging/a.sql": "select 1 as id",
		"models/staging/e.sql": "{{ config(materialized='ephemeral') }} select * from {{ ref('a') }}",
		"models/marts/b.sql":   "select * from {{ ref('a') }} join {{ ref('e') }} using (id)",
		"models/marts/c.sql":   "select 2 as id",
		"models/marts/p.sql":   "select '{{ ref('a').database }}.{{ ref('a').schema }}.{{ ref('a').identifier }}' as parts from {{ ref('a') }}",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	const b = "model.mem.b"
	before := m.Nodes[b].CompiledCode
	d := m.Defer(map[string]compiler.DeferredRelation{"model.mem.a": {Database: "prod", Schema: "staging_v2", Identifier: "a_old", Rendered: "prod.staging.a"}})
	if got := d.Nodes["model.mem.p"].CompiledCode; got != "select 'prod.staging_v2.a_old' as parts from prod.staging.a" {
		t.Errorf("deferred p: %q", got)
	}
	if got := d.Nodes[b].CompiledCode; strings.Count(got, "prod.staging.a") != 2 || strings.Contains(got, "from staging.a") {
		t.Errorf("deferred b: %q", got)
	}
	if m.Nodes[b].CompiledCode != before || strings.Contains(before, "prod.") || m.Deferred("model.mem.a") != "" {
		t.Errorf("Defer changed its manifest: b %q", m.Nodes[b].CompiledCode)
	}
	if d.ByName("b") != d.Nodes[b] || m.ByName("b") != m.Nodes[b] {
		t.Errorf("ByName and Nodes disagree on b: deferred %v, original %v", d.ByName("b") == d.Nodes[b], m.ByName("b") == m.Nodes[b])
	}
	if c := d.Nodes["model.mem.c"]; d.Deferred("model.mem.a") != "prod.staging.a" || c == nil || c.CompiledCode != m.Nodes["model.mem.c"].CompiledCode {
		t.Errorf("deferred manifest: a -> %q, c %+v", d.Deferred("model.mem.a"), c)
	}
}
