package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/version"
)

// TestLoadChecksWorkersByTheirHello: `docket load` starts no `docket-worker
// --versions` process of its own (a process start of ~0.05 s CPU a load,
// and restarted workers went unchecked); each worker's first frame
// carries its extractor versions and the pool checks them. The worker
// here answers --versions right but leaves a mark when asked: a load must
// not ask and must still extract with it. A program that answers
// --versions right but is no worker (main quarantined every document as a
// crash and exited 0) and /bin/true stop the load with the reason and how
// to build.
func TestLoadChecksWorkersByTheirHello(t *testing.T) {
	exe, _ := os.Executable()
	tmp := t.TempDir()
	asked := filepath.Join(tmp, "asked")
	script := func(name, body string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	load := func(worker string) (string, error) {
		cmd := exec.Command(exe, "load", "--quiet", "--project", tinyProject(t))
		cmd.Env = append(os.Environ(), "DOCKET_TEST_AS_DOCKET=cli", "DOCKET_WORKER="+worker)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	good := script("docket-worker", `if [ "$1" = --versions ]; then touch '`+asked+`'; echo '`+version.All()+`'; exit 0; fi
DOCKET_TEST_AS_DOCKET=1 exec '`+exe+`' worker`)
	out, err := load(good)
	if err != nil {
		t.Fatalf("docket load: %v\n%s", err, out)
	}
	if !strings.Contains(out, "new 1,") || !strings.Contains(out, "quarantined 0") {
		t.Errorf("docket load did not land the one document:\n%s", out)
	}
	if _, err := os.Stat(asked); err == nil {
		t.Errorf("docket load ran `docket-worker --versions`")
	}

	for _, c := range []struct{ worker, want string }{
		{script("answers-versions-only", `[ "$1" = --versions ] && echo '`+version.All()+`'; exit 0`), "ended before greeting"},
		{"/bin/true", "ended before greeting"},
	} {
		out, err := load(c.worker)
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(out, c.want) ||
			!strings.Contains(out, "make build") || !strings.Contains(out, "not this docket's extraction worker") {
			t.Errorf("DOCKET_WORKER=%s: %v\n%s\nwant exit 1 saying %q and how to build", c.worker, err, out, c.want)
		}
	}
}
