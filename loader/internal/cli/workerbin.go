package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/extract/version"
)

// InProcessWorker, when set, makes this binary its own extraction worker:
// `docket worker` runs it and loads start [this executable, worker]. Test
// binaries that double as docket set it (workercmd.Main). The shipped CLI
// leaves it nil and starts docket-worker, the only binary that links the
// extractors, so that no docket command pays their package initialisation.
var InProcessWorker func(stderr io.Writer) int

// WorkerName is the extraction worker's binary.
const WorkerName = "docket-worker"

// workerArgv is the argv that starts one extraction worker. Loads do not
// run `docket-worker --versions` first: each worker process greets with
// its extractor versions and the pool refuses one that is not this
// build's (worker.WrongWorker), restarted workers included.
func workerArgv() ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if InProcessWorker != nil {
		return []string{exe, "worker"}, nil
	}
	path, err := findWorker(exe, os.Getenv("DOCKET_WORKER"), exec.LookPath)
	if err != nil {
		return nil, err
	}
	return []string{path}, nil
}

// workerCommand is workerArgv with the worker's --versions answer checked
// (checkWorker): what `docket debug` reports.
func workerCommand() ([]string, error) {
	argv, err := workerArgv()
	if err != nil || InProcessWorker != nil {
		return argv, err
	}
	if err := checkWorker(argv[0]); err != nil {
		return nil, err
	}
	return argv, nil
}

// checkWorker asks the worker for its extractor versions (`docket-worker
// --versions`) and wants this docket's: a worker of another build, or a
// program that is no docket-worker (DOCKET_WORKER=/bin/true), would crash
// on or mis-extract every document (a load's pool refuses such a worker at
// its hello).
func checkWorker(path string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--versions").Output()
	got, want := strings.TrimSpace(string(out)), version.All()
	if err == nil && got == want {
		return nil
	}
	why := fmt.Sprintf("printed %q", got)
	if err != nil {
		why = fmt.Sprintf("failed (%v) after printing %q", err, got)
	}
	return fmt.Errorf("%s is not this docket's %s: `%s --versions` %s, want %q; build both with `make build` "+
		"(or go build -o bin/ ./loader/cmd/docket ./loader/cmd/docket-worker)", path, WorkerName, path, why, want)
}

// findWorker finds docket-worker: the path DOCKET_WORKER names (override),
// else beside the docket executable (make build puts both in bin/; a
// symlink to docket is followed), else on PATH.
func findWorker(exe, override string, lookPath func(string) (string, error)) (string, error) {
	if override != "" {
		if !isExecutable(override) {
			return "", fmt.Errorf("DOCKET_WORKER=%s is not an executable file", override)
		}
		return override, nil
	}
	dirs := []string{filepath.Dir(exe)}
	if real, err := filepath.EvalSymlinks(exe); err == nil && filepath.Dir(real) != dirs[0] {
		dirs = append(dirs, filepath.Dir(real))
	}
	for _, d := range dirs {
		if p := filepath.Join(d, WorkerName); isExecutable(p) {
			return p, nil
		}
	}
	if p, err := lookPath(WorkerName); err == nil {
		return p, nil
	}
	return "", errors.New(WorkerName + " (the extraction worker) is neither beside " + exe +
		" nor on PATH: build both with `make build` (or go build -o bin/ ./loader/cmd/docket ./loader/cmd/docket-worker)")
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}
