package runner

import (
	"context"
	"path/filepath"
	"sort"
	"testing"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestLoaderOwnedMatchesWarehouse checks the guarded list against the
// tables a fresh warehouse really has in raw, staging and ops.
func TestLoaderOwnedMatchesWarehouse(t *testing.T) {
	ctx := context.Background()
	db, err := warehouse.Open(ctx, filepath.Join(t.TempDir(), "w.duckdb"), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.EnsureSchema(ctx); err != nil {
		t.Fatal(err)
	}
	got := queryStrings(t, db.SQL(), `select table_schema || '.' || table_name from information_schema.tables
		where table_catalog = current_database() and table_schema in ('raw', 'staging', 'ops') and table_type = 'BASE TABLE'`)
	sort.Strings(got)
	owned := map[string]bool{}
	for _, t := range testOwned {
		owned[t] = true
	}
	if len(got) == 0 {
		t.Fatal("fresh warehouse has no loader tables")
	}
	for _, s := range got {
		if !owned[s] {
			t.Errorf("warehouse table %s is not in warehouse.OwnedTables", s)
		}
	}
	if len(got) != len(owned) {
		t.Errorf("warehouse.OwnedTables has %d entries, the warehouse %d: %v", len(owned), len(got), got)
	}
}
