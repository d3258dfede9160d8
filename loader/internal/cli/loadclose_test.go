package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/internal/workercmd"
)

// TestClosingCheckpointFailureWarned: docket load and docket land end with
// the same lean closing checkpoint (docket land did not run it), and one
// that fails is a warning saying the write-ahead log keeps what the load
// wrote (docket load dropped the error without a word). docket land's
// summary says how many documents were flagged for review, as docket
// load's does.
func TestClosingCheckpointFailureWarned(t *testing.T) {
	dir := textProject(t)
	calls := 0
	closingCheckpoint = func(*warehouse.DB, context.Context, int64) error {
		calls++
		return errors.New("warehouse: injected failure")
	}
	defer func() { closingCheckpoint = (*warehouse.DB).CheckpointLean }()
	var stdout string
	docket := func(args ...string) string {
		var out, errOut bytes.Buffer
		if code := Main(append(args, "--project", dir), &out, &errOut); code != 0 {
			t.Fatalf("docket %v: exit %d\n%s%s", args, code, out.String(), errOut.String())
		}
		stdout = out.String()
		return errOut.String()
	}
	want := "closing checkpoint failed (warehouse: injected failure); nothing is lost: what the load wrote stays in the write-ahead log"
	if got := docket("load", "--quiet"); !strings.Contains(got, want) || calls != 1 {
		t.Errorf("docket load: %d closing checkpoints, stderr:\n%s\nwant a warning %q", calls, got, want)
	}
	os.WriteFile(filepath.Join(dir, "docs", "b.txt"), []byte("Another document.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "docs", "blank.txt"), []byte(" \n\t\n"), 0o644) // no_text
	plan := filepath.Join(t.TempDir(), "plan")
	docket("plan", "--shards", "1", "--out", plan)
	docket("load", "--plan", plan, "--shard", "0")
	calls = 0
	if got := docket("land", plan); !strings.Contains(got, want) || calls != 1 {
		t.Errorf("docket land: %d closing checkpoints, stderr:\n%s\nwant a warning %q", calls, got, want)
	}
	// Its summary says what docket load's does of the documents flagged.
	if flagged := "1 landed document(s) flagged for review (see staging.reviews)"; !strings.Contains(stdout, flagged) {
		t.Errorf("docket land: want %q, got:\n%s", flagged, stdout)
	}
}

// textProject is a project folder with one text document (docs/a.txt)
// and one worker, loaded by this test binary as the worker.
func textProject(t *testing.T) string {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "docs"), 0o755)
	os.WriteFile(filepath.Join(dir, "docs", "a.txt"), []byte("A document of a few words.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: docs, path: docs}\nloader:\n  workers: 1\n"), 0o644)
	t.Setenv("DOCKET_TEST_AS_DOCKET", "1") // the workers: this binary as docket
	InProcessWorker = workercmd.Main
	t.Cleanup(func() { InProcessWorker = nil })
	return dir
}
