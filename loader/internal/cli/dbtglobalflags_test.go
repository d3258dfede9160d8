package cli

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// TestDbtGlobalFlags: dbt's global flags a real project's README and CI
// scripts pass (a dbt 1.12 setup recipe: build --no-use-colors
// --target-path target/bad-status-run) are taken, not refused with "flag
// provided but not defined" (exit 2): those that change nothing docket does
// silently, the others warned as not applied; --target-path is dbt's name
// of --target-dir; flags before the command move after it; load keeps its
// own --quiet; the model commands take --quiet and --warn-error (models.go),
// retry and load warn them.
func TestDbtGlobalFlags(t *testing.T) {
	for _, c := range []struct {
		in, want, warns string
	}{
		{"build --no-use-colors --target-path target/run", "build --target-path target/run", ""},
		{"--no-use-colors --fail-fast build -s a", "build --fail-fast -s a", ""},
		{"--project-dir p --no-partial-parse run", "run --project-dir p", ""},
		{"build --log-path logs --use-colors -q --warn-error", "build -q --warn-error", "--log-path|--use-colors"},
		{"--warn-error-options {include:all} --no-warn-error build", "build --warn-error-options {include:all} --no-warn-error", ""},
		{"retry -q --warn-error", "retry", "-q|--warn-error"},
		{"load --warn-error", "load", "--warn-error"},
		{"build --log-level=debug --printer-width 80", "build", "--log-level=debug|--printer-width"},
		{"load --quiet", "load --quiet", ""},
		{"--version", "--version", ""},
	} {
		var stderr bytes.Buffer
		got := strings.Join(dbtGlobalFlags(strings.Fields(c.in), &stderr), " ")
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.in, got, c.want)
		}
		var warned []string
		for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
			if l != "" {
				warned = append(warned, strings.Fields(strings.TrimPrefix(l, "warning: "))[0])
			}
		}
		if w := strings.Join(warned, "|"); w != c.warns {
			t.Errorf("%s: warned %q, want %q (%s)", c.in, w, c.warns, stderr.String())
		}
	}
	f, err := parseModelFlags("build", []string{"--target-path", "t/run", "-x"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual([]any{f.targetDir, f.failFast}, []any{"t/run", true}) {
		t.Errorf("--target-path t/run -x: target dir %q, fail-fast %v", f.targetDir, f.failFast)
	}
}
