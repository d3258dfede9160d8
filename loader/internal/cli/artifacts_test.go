package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// validateDBTArtifacts checks target/manifest.json and run_results.json
// against dbt's JSON Schemas in ../shared/dbt/schemas (skipped, with a
// log line, when ../shared is absent).
func validateDBTArtifacts(t *testing.T, target string) {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join(repo, "../shared/dbt/schemas"))
	if _, err := os.Stat(dir); err != nil {
		t.Logf("no %s: artifacts not validated", dir)
		return
	}
	for file, rel := range map[string]string{"manifest.json": "manifest/v12.json", "run_results.json": "run-results/v6.json"} {
		sch, err := jsonschema.NewCompiler().Compile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(target, file))
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			msg := err.Error()
			if len(msg) > 4000 {
				msg = msg[:4000] + " ..."
			}
			t.Errorf("target/%s does not validate against dbt's %s: %s", file, rel, msg)
		}
	}
}
