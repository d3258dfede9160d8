package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestSnapshotReadsAYAMLSource: a {% snapshot %} block selecting from a
// source declared in a schema file (dbt's usual place: models/<folder>/
// _sources.yml) is a snapshot of that source. Snapshots were parsed before
// the schema files were read, so every such snapshot was refused with
// "source(...) is not declared" (a real dbt project's three snapshots, in
// /tmp/robust30/training). A source no file declares is still an error, at
// the call, and the message no longer names a file the project may not have.
func TestSnapshotReadsAYAMLSource(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"models/staging/shop/_sources.yml":      "version: 2\nsources:\n  - name: shop\n    schema: shop\n    tables:\n      - name: customers\n",
		"models/staging/shop/stg_customers.sql": "select * from {{ source('shop', 'customers') }}",
		"snapshots/customers_snapshot.sql": "{% snapshot customers_snapshot %}\n" +
			"{{ config(target_schema='snapshots', unique_key='id', strategy='check', check_cols=['name']) }}\n" +
			"select * from {{ source('shop', 'customers') }}\n{% endsnapshot %}\n",
		"snapshots/gone_snapshot.sql": "{% snapshot gone_snapshot %}\n" +
			"{{ config(target_schema='snapshots', unique_key='id', strategy='check', check_cols='all') }}\n" +
			"select * from {{ source('shop', 'gone') }}\n{% endsnapshot %}\n",
	})
	got := compilertest.Strings(diags)
	if len(got) != 1 || !strings.HasPrefix(got[0], `snapshots/gone_snapshot.sql:3:18: source("shop", "gone") is not declared`) ||
		strings.Contains(got[0], "models/sources.yml") {
		t.Fatalf("diagnostics:\n%s\nwant one, at gone_snapshot's source call, naming no file", strings.Join(got, "\n"))
	}
	n := m.Nodes["snapshot.mem.customers_snapshot"]
	if n == nil {
		t.Fatal("no customers_snapshot node")
	}
	if len(n.Sources) != 1 || n.Sources[0][0] != "shop" || n.Sources[0][1] != "customers" {
		t.Errorf("customers_snapshot's sources %v, want [[shop customers]]", n.Sources)
	}
	if p := m.Parents[n.UniqueID]; len(p) != 1 || p[0] != "source.mem.shop.customers" {
		t.Errorf("customers_snapshot's parents %v, want the source", p)
	}
}
