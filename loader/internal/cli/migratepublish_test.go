package cli_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
)

// TestMigratingLoadPublishes: a load that migrates the warehouse's schema
// publishes the read copy even when it finds no document new: before, a
// no-op load after an upgrade only listed itself in the copy's stamp
// (DeferPublish) and readers kept the old schema until a load found a
// document (mem26's note).
func TestMigratingLoadPublishes(t *testing.T) {
	dir := shipped(t)
	must(t, dir, "load", "--quiet")
	must(t, dir, "load", "--quiet") // records the racily clean files' stats
	wh := filepath.Join(dir, "warehouse.duckdb")
	// The warehouse and its read copy as an older docket left them: the
	// writer says schema version 10 and the copy, published from it, too.
	db, err := sql.Open("duckdb", wh)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`update ops.meta set value = '10' where key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	must(t, dir, "publish", "--force")
	version := "select value from ops.meta where key = 'schema_version'"
	if got := query(t, dir, version); len(got) != 1 || got[0] != "10" {
		t.Fatalf("read copy's schema version before the migrating load: %v, want 10", got)
	}
	readCopy := filepath.Join(dir, "warehouse.read.duckdb")
	before, err := os.Stat(readCopy)
	if err != nil {
		t.Fatal(err)
	}
	out := must(t, dir, "load", "--quiet", "--json")
	if got := query(t, dir, version); len(got) != 1 || got[0] == "10" {
		t.Errorf("read copy's schema version after a load that migrated the warehouse: %v, want the current one (load: %s)", got, out)
	}
	if after, err := os.Stat(readCopy); err != nil || os.SameFile(before, after) {
		t.Errorf("the migrating load did not publish the read copy (%v)", err)
	}
}
