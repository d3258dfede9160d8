package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestContractEditRebuilds: a contracted table is built again when its
// YAML contract changes (a constraint added, one removed, a column's
// data_type, enforced turned off), never "up to date": on main the
// contract, columns and constraints were not in the build fingerprint, so
// the table kept its old constraints and nothing said so (robust27's hunt).
func TestContractEditRebuilds(t *testing.T) {
	ctx := context.Background()
	yml := func(cons, typ, enforced string) string {
		return "version: 2\nmodels:\n  - name: t\n    config:\n      contract: {enforced: " + enforced + "}\n" + cons +
			"    columns:\n      - name: id\n        data_type: " + typ + "\n      - name: n\n        data_type: integer\n"
	}
	dir := writeProbe(t, map[string]string{
		"models/m/t.sql":    "{{ config(materialized='table') }} select 1 as id, 2 as n",
		"models/m/t.yml":    yml("    constraints:\n      - {type: primary_key, columns: [id]}\n", "integer", "true"),
		"models/m/keep.sql": "{{ config(materialized='table') }} select 1 as x",
	})
	db, err := warehouse.Open(ctx, filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	build := func(step string) map[string]executor.Result {
		t.Helper()
		m, diags := parseProbe(t, dir)
		if len(diags) > 0 {
			t.Fatal(step, diags)
		}
		rr, err := executor.Execute(ctx, m, db, executor.RunOptions{Command: "build", Threads: 1})
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		return resultsByName(rr)
	}
	constraints := func() string {
		var s string
		db.SQL().QueryRow("select coalesce(string_agg(constraint_type, ',' order by constraint_type), '') from duckdb_constraints() where table_name = 't'").Scan(&s)
		return s
	}
	build("first")
	if got := constraints(); got != "NOT NULL,PRIMARY KEY" {
		t.Fatalf("first build: constraints %q", got)
	}
	if r := build("again"); !r["t"].UpToDate || !r["keep"].UpToDate {
		t.Errorf("nothing changed: t and keep should be up to date")
	}
	// a data_type the SQL does not return: the contract is checked again
	// and fails (on main: up to date); the table stays as it was
	for _, step := range []struct{ name, yml, want, typ, fails string }{
		{"check instead of primary key", yml("    constraints:\n      - {type: check, expression: 'n > 0'}\n", "integer", "true"), "CHECK", "INTEGER", ""},
		{"data_type", yml("    constraints:\n      - {type: check, expression: 'n > 0'}\n", "varchar", "true"), "CHECK", "INTEGER", "the contract says VARCHAR"},
		{"not enforced", yml("    constraints:\n      - {type: check, expression: 'n > 0'}\n", "bigint", "false"), "", "INTEGER", ""},
	} {
		if err := os.WriteFile(filepath.Join(dir, "models/m/t.yml"), []byte(step.yml), 0o644); err != nil {
			t.Fatal(err)
		}
		r := build(step.name)
		if step.fails != "" && (r["t"].Status != executor.StatusError || !strings.Contains(r["t"].Message, step.fails)) {
			t.Errorf("%s: t %s %q, want an error saying %q", step.name, r["t"].Status, r["t"].Message, step.fails)
		}
		if r["t"].UpToDate || !r["keep"].UpToDate {
			t.Errorf("%s: t up to date %v (want rebuilt), keep %v (want up to date)", step.name, r["t"].UpToDate, r["keep"].UpToDate)
		}
		var typ string
		db.SQL().QueryRow("select data_type from information_schema.columns where table_name = 't' and column_name = 'id'").Scan(&typ)
		if got := constraints(); got != step.want || typ != step.typ {
			t.Errorf("%s: constraints %q id %s, want %q %s", step.name, got, typ, step.want, step.typ)
		}
	}
}
