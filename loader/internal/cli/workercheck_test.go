package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/version"
)

// TestLoadChecksWorkerWhileOpening: `docket load` asks the worker for its
// versions while it opens the warehouse, not before (both are serial
// start-up of every load). The worker here answers --versions only once
// the warehouse file exists (it gives up after ~20 s and answers wrong),
// so a load that checks first and opens after fails; the load must also
// still extract with the checked worker.
func TestLoadChecksWorkerWhileOpening(t *testing.T) {
	dir := tinyProject(t)
	exe, _ := os.Executable()
	worker := filepath.Join(t.TempDir(), "docket-worker")
	script := `#!/bin/sh
if [ "$1" = --versions ]; then
	i=0
	while [ ! -e '` + filepath.Join(dir, "warehouse.duckdb") + `' ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
	if [ -e '` + filepath.Join(dir, "warehouse.duckdb") + `' ]; then echo '` + version.All() + `'; else echo 'warehouse-not-opened'; fi
	exit 0
fi
DOCKET_TEST_AS_DOCKET=1 exec '` + exe + `' worker
`
	if err := os.WriteFile(worker, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "load", "--quiet", "--project", dir)
	cmd.Env = append(os.Environ(), "DOCKET_TEST_AS_DOCKET=cli", "DOCKET_WORKER="+worker)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("docket load: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "new 1,") || !strings.Contains(string(out), "quarantined 0") {
		t.Errorf("docket load did not land the one document:\n%s", out)
	}
}
