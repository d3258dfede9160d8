package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/cli"
)

// TestInitIgnoresEveryWarehouseFile: the .gitignore `docket init` writes
// covers every file docket keeps beside the warehouse, the hidden ones of
// a publish too (the spare copy is as big as the warehouse: `git add -A`
// must not pick it up).
func TestInitIgnoresEveryWarehouseFile(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := filepath.Join(t.TempDir(), "p")
	var out bytes.Buffer
	if code := cli.Main([]string{"init", dir}, &out, &out); code != 0 {
		t.Fatalf("init: %d\n%s", code, out.String())
	}
	files := []string{"warehouse.duckdb", "warehouse.duckdb.wal", "warehouse.read.duckdb", "warehouse.read.duckdb.json",
		"warehouse.read.duckdb.search", ".warehouse.read.duckdb.blocks", ".warehouse.read.duckdb.spare",
		".warehouse.read.duckdb.spare.blocks", ".warehouse.read.duckdb.lock", ".warehouse.read.duckdb.123.tmp"}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, b)
	}
	cmd := exec.Command("git", "-C", dir, "check-ignore", "--no-index", "--verbose", "--non-matching", "--stdin")
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	b, _ := cmd.Output()
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(line, "::") {
			t.Errorf("not ignored: %s", strings.TrimSpace(strings.TrimPrefix(line, "::")))
		}
	}
}
