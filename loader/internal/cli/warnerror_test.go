package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runSplit runs docket as run does, stdout and stderr apart.
func runSplit(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	exe, _ := os.Executable()
	cmd := exec.Command(exe, append(args, "--project", dir)...)
	cmd.Env = append(append(os.Environ(), "DOCKET_TEST_AS_DOCKET=1"), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// statuses are the statuses target/run_results.json records, by node name.
func statuses(t *testing.T, dir string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "target", "run_results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rr struct {
		Results []struct {
			UniqueID string `json:"unique_id"`
			Status   string `json:"status"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b, &rr); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range rr.Results {
		out[r.UniqueID[strings.LastIndex(r.UniqueID, ".")+1:]] = r.Status
	}
	return out
}

// TestWarnError: dbt's --warn-error is applied (it was warned as not
// applied): a test of severity warn that finds rows fails;
// dbt_project.yml's flags: warn_error, --warn-error-options '{include:
// all}' and DBT_WARN_ERROR do the same, --no-warn-error undoes them;
// naming dbt events in the options is warned as not applied.
func TestWarnError(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"dbt_project.yml": "name: we\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":    "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: we.duckdb, schema: main}\n",
		"models/a.sql":    "select 1 as id union all select 1",
		"models/schema.yml": "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        data_tests:\n" +
			"          - unique:\n              config: {severity: warn}\n",
	}
	writeFiles(t, dir, files)
	_, stderr, code := runSplit(t, dir, nil, "build")
	if st := statuses(t, dir); code != 0 || st["unique_a_id"] != "warn" {
		t.Fatalf("build: exit %d, statuses %v\n%s", code, st, stderr)
	}
	for _, c := range []struct {
		name string
		env  []string
		args []string
	}{
		{"--warn-error", nil, []string{"build", "--warn-error"}},
		{"--warn-error before the command", nil, []string{"--warn-error", "build"}},
		{"--warn-error-options", nil, []string{"build", "--warn-error-options", "{include: all}"}},
		{"DBT_WARN_ERROR", []string{"DBT_WARN_ERROR=true"}, []string{"build"}},
	} {
		stdout, stderr, code := runSplit(t, dir, c.env, c.args...)
		if st := statuses(t, dir); code != 1 || st["unique_a_id"] != "fail" || !strings.Contains(stdout, "a failure under --warn-error") {
			t.Errorf("%s: exit %d, statuses %v\n%s%s", c.name, code, st, stdout, stderr)
		}
	}
	if _, stderr, code := runSplit(t, dir, []string{"DBT_WARN_ERROR=true"}, "build", "--no-warn-error"); code != 0 {
		t.Errorf("--no-warn-error: exit %d\n%s", code, stderr)
	}
	_, stderr, code = runSplit(t, dir, nil, "build", "--warn-error-options", "{include: [NoNodesForSelectionCriteria]}")
	if code != 0 || !strings.Contains(stderr, "NoNodesForSelectionCriteria") || !strings.Contains(stderr, "stay warnings") {
		t.Errorf("--warn-error-options naming an event: exit %d\n%s", code, stderr)
	}

	// the project's flags; docket's own notices (a view's contract it
	// cannot enforce, a dbt flag it does not act on) stay warnings: dbt
	// fires no event for them, so a project passing `dbt build
	// --warn-error` passes here too (review46)
	files["dbt_project.yml"] += "flags:\n  warn_error: true\n  no_such_flag: true\n"
	files["models/v.sql"] = "select 1 as id"
	files["models/schema.yml"] += "  - name: v\n    config: {materialized: view, contract: {enforced: true}}\n" +
		"    columns:\n      - {name: id, data_type: bigint}\n"
	writeFiles(t, dir, files)
	stdout, stderr, code := runSplit(t, dir, nil, "build")
	if st := statuses(t, dir); code != 1 || st["unique_a_id"] != "fail" || st["v"] != "success" ||
		!strings.Contains(stderr, "contract of v") || !strings.Contains(stderr, "no_such_flag") || !strings.Contains(stderr, "stay warnings") {
		t.Errorf("flags: warn_error: exit %d, statuses %v\n%s%s", code, st, stdout, stderr)
	}
}

// TestQuiet: dbt's --quiet / -q is applied (it was warned as not applied):
// stdout keeps only a failure's lines and the command's own output (ls's
// list), warnings stay on stderr.
func TestQuiet(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"dbt_project.yml": "name: qu\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":    "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: qu.duckdb, schema: main}\n",
		"models/a.sql":    "select 1 as id union all select 1",
		"models/b.sql":    "select 2 as id",
		"models/schema.yml": "version: 2\nmodels:\n  - name: a\n    columns:\n      - name: id\n        data_tests: [unique]\n" +
			"  - name: b\n    columns:\n      - name: id\n        data_tests: [unique]\n",
	})
	loud, _, code := runSplit(t, dir, nil, "build", "-s", "b")
	if code != 0 || !strings.Contains(loud, "Found ") || !strings.Contains(loud, "Completed successfully") {
		t.Fatalf("build -s b: exit %d\n%s", code, loud)
	}
	for _, q := range []string{"-q", "--quiet"} {
		stdout, stderr, code := runSplit(t, dir, nil, "build", "-s", "b", q)
		if code != 0 || strings.TrimSpace(stdout) != "" || strings.Contains(stderr, "does not apply") {
			t.Errorf("build -s b %s: exit %d, stdout %q\n%s", q, code, stdout, stderr)
		}
	}
	stdout, _, code := runSplit(t, dir, nil, "--quiet", "build")
	if code != 1 || !strings.Contains(stdout, "unique_a_id") || strings.Contains(stdout, "unique_b_id") ||
		!strings.Contains(stdout, "Failure in test unique_a_id") || strings.Contains(stdout, "Found ") || strings.Contains(stdout, "Done. PASS") {
		t.Errorf("--quiet build with a failing test: exit %d\n%s", code, stdout)
	}
	stdout, _, code = runSplit(t, dir, nil, "ls", "-q", "--resource-type", "model")
	if code != 0 || strings.TrimSpace(stdout) != "model\tmain.a\tview\nmodel\tmain.b\tview" {
		t.Errorf("ls -q: exit %d\n%s", code, stdout)
	}
}

// TestFailFastSources: dbt's DBT_FAIL_FAST and --no-fail-fast are read
// (review46's LOW: after dbt_project.yml's fail_fast: true the command
// line could not undo it, --no-fail-fast was "flag provided but not
// defined", and DBT_FAIL_FAST was ignored).
func TestFailFastSources(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"dbt_project.yml":  "name: ff\nversion: '1'\nconfig-version: 2\nprofile: p\n",
		"profiles.yml":     "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: ff.duckdb, schema: main, threads: 1}\n",
		"models/a_bad.sql": "{{ config(materialized='table') }}\nselect * from no_such_table",
		"models/b.sql":     "{{ config(materialized='table') }}\nselect 1 as id",
	}
	writeFiles(t, dir, files)
	check := func(name string, env []string, wantB string, args ...string) {
		t.Helper()
		_, stderr, code := runSplit(t, dir, env, append([]string{"run", "--threads", "1", "--force"}, args...)...)
		if st := statuses(t, dir); code != 1 || st["a_bad"] != "error" || st["b"] != wantB {
			t.Errorf("%s: exit %d, statuses %v\n%s", name, code, st, stderr)
		}
	}
	check("plain", nil, "success")
	check("DBT_FAIL_FAST", []string{"DBT_FAIL_FAST=true"}, "skipped")
	check("DBT_FAIL_FAST --no-fail-fast", []string{"DBT_FAIL_FAST=1"}, "success", "--no-fail-fast")
	files["dbt_project.yml"] += "flags:\n  fail_fast: true\n"
	writeFiles(t, dir, files)
	check("flags: fail_fast", nil, "skipped")
	check("flags: fail_fast, DBT_FAIL_FAST=false", []string{"DBT_FAIL_FAST=false"}, "success")
	check("flags: fail_fast, --no-fail-fast", nil, "success", "--no-fail-fast")
}
