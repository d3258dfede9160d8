package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestSourceFreshnessFrozenClock checks every source's status and age
// against a frozen clock, and the artifact against dbt's sources/v3 schema
// when ../shared has it.
func TestSourceFreshnessFrozenClock(t *testing.T) {
	m := parseFixture(t, "testdata/freshness.fixture")
	ctx := context.Background()
	db, err := warehouse.Open(ctx, filepath.Join(t.TempDir(), "w.duckdb"), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`create schema ops`, `create schema feeds`, `create schema other`, `create schema raw`,
		`create table raw.documents (doc_id varchar)`,
		`create table other.manual (x int)`,
		`create table ops.load_runs (run_id varchar, finished_at timestamp, status varchar)`,
		// The last completed load finished 30 h before the frozen clock; a later failed one does not count.
		`insert into ops.load_runs values ('a', '2026-03-09 06:00:00', 'completed'), ('b', '2026-03-10 11:00:00', 'failed'), ('c', null, 'running')`,
		`create table feeds.events (kind varchar, loaded_at timestamp)`,
		`insert into feeds.events values ('ok', '2026-03-10 11:30:00'), ('bad', '2026-03-10 11:59:00')`,
		`create table feeds.events_2025 (kind varchar, loaded_at timestamptz)`,
		`insert into feeds.events_2025 values ('ok', '2026-03-10 08:00:00+00')`,
		`create table feeds.undated (kind varchar)`,
	} {
		if _, err := db.SQL().Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var ids []string
	for id := range m.Sources {
		ids = append(ids, id)
	}
	sources := m.FreshnessSources(ids)
	frozen := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	results := executor.CheckFreshness(ctx, executor.SQLQuerier(db.SQL()), sources, executor.FreshnessOptions{Now: func() time.Time { return frozen }})
	got := map[string]executor.FreshnessResult{}
	for _, r := range results {
		got[r.Source] = r
	}
	want := map[string]struct {
		status string
		age    time.Duration
	}{
		"raw.documents":    {executor.FreshWarn, 30 * time.Hour},   // warn 1 day, error 3 days: from ops.load_runs
		"feeds.events":     {executor.FreshWarn, 30 * time.Minute}, // warn 20 min (the table's), error 2 h (the source's); filter drops 'bad'
		"feeds.old_events": {executor.FreshError, 4 * time.Hour},   // identifier events_2025
		"feeds.undated":    {executor.FreshRTE, 0},                 // no loaded_at_field, not the loader's
		"other.manual":     {executor.FreshRTE, 0},
	}
	if len(got) != len(want) {
		t.Errorf("checked %d sources, want %d (document_versions turns freshness off): %v", len(got), len(want), got)
	}
	for name, w := range want {
		r, ok := got[name]
		if !ok {
			t.Errorf("%s was not checked", name)
			continue
		}
		if r.Status != w.status {
			t.Errorf("%s: status %s, want %s (error %v)", name, r.Status, w.status, r.Error)
		}
		if w.status != executor.FreshRTE && r.Age != w.age {
			t.Errorf("%s: age %s, want %s", name, r.Age, w.age)
		}
		if w.status == executor.FreshRTE && (r.Error == nil || !strings.Contains(*r.Error, "loaded_at_field")) {
			t.Errorf("%s: a runtime error should say a loaded_at_field is missing, got %v", name, r.Error)
		}
	}
	if r := got["raw.documents"]; !r.FromLoad || r.MaxLoadedAt != "2026-03-09T06:00:00.000000Z" || *r.AgeSeconds != 30*3600 {
		t.Errorf("raw.documents: %+v", r)
	}
	// a later load the read copy does not record (it found nothing new:
	// its stamp lists it) counts for the loader's tables only
	later := executor.CheckFreshness(ctx, executor.SQLQuerier(db.SQL()), sources, executor.FreshnessOptions{Now: func() time.Time { return frozen },
		LaterLoad: frozen.Add(-time.Hour)})
	for _, r := range later {
		switch r.Source {
		case "raw.documents":
			if r.Status != executor.FreshPass || r.Age != time.Hour {
				t.Errorf("raw.documents with a later unpublished load: %s, age %s", r.Status, r.Age)
			}
		case "feeds.events":
			if r.Age != 30*time.Minute {
				t.Errorf("feeds.events should not take the load's time: age %s", r.Age)
			}
		}
	}
	if c := got["feeds.events"].Criteria; c.WarnAfter.String() != "20 minutes" || c.ErrorAfter.String() != "2 hours" || c.Filter == nil {
		t.Errorf("feeds.events criteria: warn %s, error %s", c.WarnAfter, c.ErrorAfter)
	}

	doc, _ := json.Marshal(executor.SourcesArtifact{Metadata: map[string]any{"dbt_schema_version": "https://schemas.getdbt.com/dbt/sources/v3.json",
		"generated_at": "2026-03-10T12:00:00Z"}, Results: results, ElapsedTime: 0.1})
	validateSourcesJSON(t, doc)
}

// validateSourcesJSON checks doc against ../shared/dbt/schemas/sources/v3.json.
func validateSourcesJSON(t *testing.T, doc []byte) {
	t.Helper()
	schemaPath, _ := filepath.Abs("../../../../shared/dbt/schemas/sources/v3.json")
	if _, err := os.Stat(schemaPath); err != nil {
		t.Logf("dbt's sources schema not found (%s): artifact not validated", schemaPath)
		return
	}
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(doc)))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Fatalf("sources.json does not validate against dbt's v3 schema: %v\n%s", err, doc)
	}
}

// TestFreshnessConfigErrors: bad thresholds are diagnostics with a line.
func TestFreshnessConfigErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "project.yaml"), []byte("version: 1\nname: bad\n"))
	writeFile(t, filepath.Join(dir, "models/sources.yml"), []byte(`version: 2
sources:
  - name: s
    freshness:
      warn_after: {count: 2, period: week}
      error_after: {count: -1, period: day}
      errror_after: {count: 1, period: day}
    tables:
      - name: t
        freshness:
          warn_after: {count: 3}
`))
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, UDFs: testFuncs})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		`models/sources.yml:5:38: freshness warn_after.period must be minute, hour or day (got "week")`,
		`models/sources.yml:6:28: freshness error_after.count must be a positive whole number (got "-1")`,
		`models/sources.yml:7:7: unknown key "errror_after" in freshness`,
		`models/sources.yml:11:23: freshness warn_after needs both count and period`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing diagnostic %q in:\n%s", want, all)
		}
	}
}
