package runner

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const internal = "github.com/docket-dev/docket/loader/internal/"

// drivers are database drivers' import paths (prefixes).
var drivers = []string{"github.com/duckdb/", "github.com/marcboeker/go-duckdb", "github.com/mattn/go-sqlite3",
	"github.com/lib/pq", "github.com/jackc/"}

// listDeps is every package pkg's non-test build imports, transitively
// (`go list -deps`).
func listDeps(t *testing.T, pkg string) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the imports with")
	}
	out, err := exec.Command(gobin, "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !slices.Contains(deps, internal+"runner/render") {
		t.Fatalf("go list -deps %s gave an unexpected list: %v", pkg, deps)
	}
	return deps
}

// TestNoDatabaseDriverLinked: the runner (compiler and executor) reaches
// the warehouse only through executor.Database, so it links no database
// driver.
func TestNoDatabaseDriverLinked(t *testing.T) {
	for _, d := range listDeps(t, ".") {
		for _, bad := range append(drivers, "/loader/internal/warehouse") {
			if strings.Contains(d, bad) {
				t.Errorf("the runner depends on %s", d)
			}
		}
	}
}

// TestCompilerLinksNoDatabase: the compiler is pure: it imports neither
// a database driver nor database/sql, the warehouse, the executor nor
// this facade.
func TestCompilerLinksNoDatabase(t *testing.T) {
	deps := listDeps(t, "./compiler")
	for _, d := range deps {
		bad := d == "database/sql" || d == internal+"runner" || strings.HasPrefix(d, internal+"runner/executor") ||
			strings.HasPrefix(d, internal+"warehouse")
		for _, driver := range drivers {
			bad = bad || strings.Contains(d, driver)
		}
		if bad {
			t.Errorf("the compiler depends on %s", d)
		}
	}
}
