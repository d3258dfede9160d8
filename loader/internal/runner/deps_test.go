package runner

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoDatabaseDriverLinked: the runner (parse, graph, selection and the
// scheduler) reaches the warehouse only through Database, so it links no
// database driver. `go list -deps` lists every package the runner's
// non-test build imports, transitively.
func TestNoDatabaseDriverLinked(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the imports with")
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !contains(deps, "github.com/docket-dev/docket/loader/internal/runner/render") {
		t.Fatalf("go list -deps gave an unexpected list: %v", deps)
	}
	for _, d := range deps {
		for _, bad := range []string{"github.com/duckdb/", "github.com/marcboeker/go-duckdb", "github.com/mattn/go-sqlite3",
			"github.com/lib/pq", "github.com/jackc/", "/loader/internal/warehouse"} {
			if strings.Contains(d, bad) {
				t.Errorf("the runner depends on %s", d)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
