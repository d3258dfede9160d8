package testflags

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryTestPackageAcceptsUpdate: `go test ./... -update` fails in a
// package whose test binary does not define -update, so every package
// with tests must import this one.
func TestEveryTestPackageAcceptsUpdate(t *testing.T) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Skipf("go env GOMOD: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	const self = "github.com/docket-dev/docket/loader/internal/testflags"
	cmd := exec.Command("go", "list", "-f",
		`{{.ImportPath}}|{{len .TestGoFiles}}|{{len .XTestGoFiles}}|{{join .TestImports " "}} {{join .XTestImports " "}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(line, "|", 4)
		if len(f) != 4 || f[0] == self || (f[1] == "0" && f[2] == "0") {
			continue
		}
		checked++
		if !strings.Contains(" "+f[3]+" ", " "+self+" ") {
			t.Errorf("%s has tests but does not import %s: add a testflags_test.go like the other packages' (go test ./... -update fails there)", f[0], self)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d packages with tests found: go list output not understood", checked)
	}
}
