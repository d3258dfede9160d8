package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/version"
)

func TestFindWorker(t *testing.T) {
	dir := t.TempDir()
	bin, other, pathDir := filepath.Join(dir, "bin"), filepath.Join(dir, "elsewhere"), filepath.Join(dir, "path")
	for _, d := range []string{bin, other, pathDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path string, mode os.FileMode) {
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	docket := filepath.Join(bin, "docket")
	write(docket, 0o755)
	noPath := func(string) (string, error) { return "", errors.New("not on PATH") }
	onPath := func(name string) (string, error) { return filepath.Join(pathDir, name), nil }

	// Nothing beside docket, nothing on PATH: the error says how to build it.
	if _, err := findWorker(docket, "", noPath); err == nil || !strings.Contains(err.Error(), "make build") {
		t.Fatalf("no worker anywhere: err = %v", err)
	}
	// A file that is not executable does not count.
	write(filepath.Join(bin, WorkerName), 0o644)
	if got, err := findWorker(docket, "", onPath); err != nil || got != filepath.Join(pathDir, WorkerName) {
		t.Fatalf("non-executable beside docket: got %q, %v; want the one on PATH", got, err)
	}
	// Beside docket wins over PATH.
	if err := os.Chmod(filepath.Join(bin, WorkerName), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := findWorker(docket, "", onPath); err != nil || got != filepath.Join(bin, WorkerName) {
		t.Fatalf("beside docket: got %q, %v", got, err)
	}
	// docket run through a symlink elsewhere: the worker beside the real binary.
	link := filepath.Join(other, "docket")
	if err := os.Symlink(docket, link); err != nil {
		t.Fatal(err)
	}
	if got, err := findWorker(link, "", noPath); err != nil || got != filepath.Join(bin, WorkerName) {
		t.Fatalf("through a symlink: got %q, %v", got, err)
	}
	// DOCKET_WORKER overrides, and must name an executable.
	custom := filepath.Join(other, "my-worker")
	if _, err := findWorker(docket, custom, onPath); err == nil || !strings.Contains(err.Error(), "DOCKET_WORKER") {
		t.Fatalf("missing override: err = %v", err)
	}
	write(custom, 0o755)
	if got, err := findWorker(docket, custom, onPath); err != nil || got != custom {
		t.Fatalf("override: got %q, %v", got, err)
	}
}

// TestCLIDoesNotLinkTheExtractors: every package a binary links runs its
// initialisation in every process, so the docket CLI must not link the
// extractors (docket-worker does): excelize alone cost 16-41 ms of every
// command, go-trafilatura's date parser 0.3-1 s.
func TestCLIDoesNotLinkTheExtractors(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	out, err := exec.Command(gotool, "list", "-deps", "github.com/docket-dev/docket/loader/cmd/docket").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/docket-dev/docket/loader/internal/cli") {
		t.Fatalf("go list -deps does not list the cli package:\n%s", out)
	}
	for _, d := range deps {
		for _, bad := range []string{"github.com/docket-dev/docket/loader/internal/extract/html", "github.com/docket-dev/docket/loader/internal/extract/office",
			"github.com/docket-dev/docket/loader/internal/extract/pdf", "github.com/docket-dev/docket/loader/internal/workercmd",
			"github.com/xuri/excelize", "codeberg.org/readeck/go-readability", "github.com/markusmobius/", "github.com/json-iterator/go"} {
			if strings.HasPrefix(d, bad) {
				t.Errorf("the docket CLI links %s (its initialisation would run in every docket command; only docket-worker may)", d)
			}
		}
		if d == "github.com/docket-dev/docket/loader/internal/extract" {
			t.Errorf("the docket CLI links the extractors' router (only docket-worker may)")
		}
	}
}

// TestCheckWorker: a load starts only workers that answer --versions with
// this docket's extractor versions; a program that is no docket-worker
// (DOCKET_WORKER=/bin/true quarantined every document as a crash and the
// load exited 0) or one of another build is refused with what it printed.
func TestCheckWorker(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := script("good", `[ "$1" = --versions ] && echo '`+version.All()+`'`)
	if err := checkWorker(good); err != nil {
		t.Errorf("this build's worker refused: %v", err)
	}
	for _, c := range []struct{ path, want string }{
		{"/bin/true", `printed ""`},
		{script("old", `echo 'archive/1+docket/1+pdf/1'`), `printed "archive/1+docket/1+pdf/1"`},
		{script("fails", `echo usage >&2; exit 2`), "exit status 2"},
	} {
		err := checkWorker(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "make build") {
			t.Errorf("%s: got %v, want an error saying %q and how to build", c.path, err, c.want)
		}
	}
}
