package warehouse

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestScratchMemoryLimit: a shard's scratch database (docket load --plan
// --shard) runs under the memory_limit it is given (loader.memory_limit),
// not DuckDB's default of 80 % of the machine.
func TestScratchMemoryLimit(t *testing.T) {
	ctx := context.Background()
	s, err := OpenScratch(ctx, t.TempDir(), 96<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got string
	if err := s.db.sql.QueryRowContext(ctx, `select current_setting('memory_limit')`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != "96.0 MiB" {
		t.Errorf("scratch memory_limit %s, want 96.0 MiB", got)
	}
}

// TestScratchFailedCommitWritesNothingMore: a shard's scratch database
// takes no batch after a failed commit (see CommitError), as the
// warehouse does: the old Scratch.Land committed the next one.
func TestScratchFailedCommitWritesNothingMore(t *testing.T) {
	ctx := context.Background()
	s, err := OpenScratch(ctx, t.TempDir(), 96<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	doc := func(id string) []Landing {
		return []Landing{{Doc: DocRow{DocID: id, SourceName: "s", RelPath: id + ".txt", URI: "file:///" + id, Hash: "h" + id, Status: StatusQuarantined, ErrorKind: "empty"}, Event: "new"}}
	}
	Hooks.Commit = func([]Landing) error { return errors.New("failed to pin block of size 256.0 KiB (injected)") }
	err = s.Land(ctx, "run", time.Now(), doc("a"), nil)
	Hooks.Commit = nil
	if !IsCommitError(err) {
		t.Fatalf("a failed commit should be a CommitError, got %v", err)
	}
	if err := s.Land(ctx, "run", time.Now(), doc("b"), nil); err == nil {
		t.Error("a batch was landed after a failed commit")
	}
	var n int
	if err := s.db.sql.QueryRowContext(ctx, `select count(*) from shard_docs`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d rows in shard_docs (%v), want 0", n, err)
	}
}

// TestShardLandingAfterFailedCommit: after a failed commit `docket land`
// writes nothing more either (LandDecisions, FinishRun).
func TestShardLandingAfterFailedCommit(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	Hooks.Commit = func([]Landing) error { return errors.New("failed to pin block of size 256.0 KiB (injected)") }
	err := db.Land(ctx, "run", time.Now(), []Landing{{Doc: DocRow{DocID: "a", SourceName: "s", RelPath: "a.txt", URI: "file:///a", Status: StatusQuarantined, ErrorKind: "empty"}, Event: "new"}}, nil)
	Hooks.Commit = nil
	if !IsCommitError(err) {
		t.Fatalf("a failed commit should be a CommitError, got %v", err)
	}
	if _, err := db.LandDecisions(ctx, "run", time.Now(), "plan", []Skip{{SourceName: "s", RelPath: "x", Kind: "symlink", Reason: "a symlink"}}, nil, nil); err == nil {
		t.Error("LandDecisions wrote after a failed commit")
	}
	if err := db.FinishRun(ctx, Run{ID: "run", Status: "completed"}); err == nil {
		t.Error("FinishRun wrote after a failed commit")
	}
}
