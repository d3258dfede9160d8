package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestJaffleShop builds ../shared/dbt/jaffle-shop from a copy of its own
// folder with no edits (dbt-utils placed under dbt_packages/ as `dbt deps`
// would; dbt_date is not available offline) and reports what passes.
func TestJaffleShop(t *testing.T) {
	src, _ := filepath.Abs("../../../../shared/dbt/jaffle-shop")
	utils, _ := filepath.Abs("../../../../shared/dbt/dbt-utils")
	if _, err := os.Stat(filepath.Join(src, "dbt_project.yml")); err != nil {
		t.Skip("../shared/dbt/jaffle-shop is absent")
	}
	dir := filepath.Join(t.TempDir(), "jaffle")
	if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
		t.Fatalf("copy: %v %s", err, out)
	}
	os.MkdirAll(filepath.Join(dir, "dbt_packages"), 0o755)
	if out, err := exec.Command("cp", "-r", utils, filepath.Join(dir, "dbt_packages", "dbt_utils")).CombinedOutput(); err != nil {
		t.Fatalf("copy: %v %s", err, out)
	}
	// The one change: dbt_date is not available offline (not in ../shared),
	// so the model calling dbt_date.get_base_dates is left out.
	os.Remove(filepath.Join(dir, "models", "marts", "metricflow_time_spine.sql"))
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, Vars: map[string]any{"load_source_data": true}})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range m.Warnings {
		t.Logf("warning: %s", w)
	}
	for _, d := range diags {
		t.Errorf("%s", d)
	}
	if len(diags) > 0 {
		return
	}
	// Its sources are its own seeds: a model reading one waits for it.
	if !m.Ancestors("model.jaffle_shop.stg_locations")["seed.jaffle_shop.raw_stores"] {
		t.Errorf("stg_locations reads source ecom.raw_stores, which seed raw_stores builds: it must wait for it")
	}
	ctx := context.Background()
	db, err := warehouse.Open(ctx, p.Warehouse, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rr, err := executor.Execute(ctx, m, db, executor.RunOptions{Command: "build", Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, r := range rr.Results {
		counts[r.ResourceType+" "+r.Status]++
		if r.Failed() || r.Status == executor.StatusSkipped || r.Status == executor.StatusWarn {
			t.Errorf("%s %s: %s", r.UniqueID, r.Status, r.Message)
		}
	}
	t.Logf("results: %v", counts)
	// Its artifacts validate against dbt's own JSON Schemas.
	if err := executor.WriteArtifacts(m, filepath.Join(dir, "target"), rr); err != nil {
		t.Fatal(err)
	}
	validateTarget(t, filepath.Join(dir, "target"))
	// YAML docket does not act on is kept in its dbt places.
	doc := m.ManifestDoc()
	if len(doc.SemanticModels) != 6 || len(doc.Metrics) != 19 || len(doc.SavedQueries) != 3 || len(doc.UnitTests) != 3 {
		t.Errorf("manifest keeps %d semantic models, %d metrics, %d saved queries, %d unit tests; want 6, 19, 3, 3",
			len(doc.SemanticModels), len(doc.Metrics), len(doc.SavedQueries), len(doc.UnitTests))
	}
	// jaffle-shop: 6 seeds, 12 models (13 less the dbt_date one), 27 data tests, 3 unit tests
	if counts["seed success"] != 6 || counts["model success"] != 12 || counts["test pass"] < 27 || counts["unit_test pass"] != 3 {
		t.Errorf("jaffle-shop should build 6 seeds, 12 models and pass its 27 tests and 3 unit tests: %v", counts)
	}
	var n int
	if err := db.SQL().QueryRowContext(ctx, "select count(*) from main.customers").Scan(&n); err != nil || n == 0 {
		t.Errorf("main.customers: %d rows, %v", n, err)
	}
	// Built again with nothing changed, every node is up to date (its
	// sources get the versions of the seeds that build them).
	rr, err = executor.Execute(ctx, m, db, executor.RunOptions{Command: "build", Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rr.Results {
		if !r.UpToDate {
			t.Errorf("second build: %s %s %q, want up to date", r.UniqueID, r.Status, r.Message)
		}
	}
}

// dbtUtilsFloor is what ../shared/dbt/dbt-utils's integration_tests
// project reaches under docket today, built from a copy of its own folder
// with no edits: models built and tests passed. Raise it as more passes;
// a drop fails.
var dbtUtilsFloor = map[string]int{"model success": 50, "test pass": 112, "seed success": 75}

// dbtUtilsCeiling: nothing fails. Under dbt-duckdb 2 models and 2 tests
// do: get_relations_by_pattern/prefix read <database>.information_schema.tables,
// which docket reads as Postgres does (executor/infoschema.go), and the
// seeds' `+column_types: float` is DuckDB's 4-byte REAL there, DOUBLE in
// docket (compiler.SeedColumnType), so equality_floats at precision 8 and
// width_bucket get what the supported adapters get.
var dbtUtilsCeiling = map[string]int{"model error": 0, "test fail": 0, "test error": 0, "seed error": 0, "test skipped": 0}

// TestDbtUtilsIntegration builds dbt-utils's integration_tests project
// (packages.yml's `local: ../` is dbt-utils itself) and checks it parses
// clean and builds at least dbtUtilsFloor.
func TestDbtUtilsIntegration(t *testing.T) {
	src, _ := filepath.Abs("../../../../shared/dbt/dbt-utils")
	if _, err := os.Stat(filepath.Join(src, "integration_tests", "dbt_project.yml")); err != nil {
		t.Skip("../shared/dbt/dbt-utils is absent")
	}
	root := filepath.Join(t.TempDir(), "dbt-utils")
	if out, err := exec.Command("cp", "-r", src, root).CombinedOutput(); err != nil {
		t.Fatalf("copy: %v %s", err, out)
	}
	dir := filepath.Join(root, "integration_tests")
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		t.Errorf("%s", d)
	}
	if len(diags) > 0 {
		return
	}
	ctx := context.Background()
	db, err := warehouse.Open(ctx, p.Warehouse, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rr, err := executor.Execute(ctx, m, db, executor.RunOptions{Command: "build", Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, r := range rr.Results {
		counts[r.ResourceType+" "+r.Status]++
		if r.Status != executor.StatusSuccess && r.Status != executor.StatusPass {
			t.Errorf("%s %s: %s", r.UniqueID, r.Status, compiler.FirstLine(r.Message))
		}
	}
	t.Logf("dbt-utils integration_tests: %v of %d nodes", counts, len(rr.Results))
	for k, floor := range dbtUtilsFloor {
		if counts[k] < floor {
			t.Errorf("%s: %d, the floor is %d", k, counts[k], floor)
		}
	}
	for k, most := range dbtUtilsCeiling {
		if counts[k] > most {
			t.Errorf("%s: %d, at most %d", k, counts[k], most)
		}
	}
	if err := executor.WriteArtifacts(m, filepath.Join(dir, "target"), rr); err != nil {
		t.Fatal(err)
	}
	validateTarget(t, filepath.Join(dir, "target"))
}
