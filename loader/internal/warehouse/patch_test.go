package warehouse

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/zeebo/xxh3"
)

// checkBlockHashes fails when the block hashes kept for the file at p do
// not describe its content: a patch that trusts them would leave blocks of
// another state in the next published copy.
func checkBlockHashes(t *testing.T, p string) {
	t.Helper()
	b := readBlockHashes(p)
	if b == nil {
		return
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range b.Hashes {
		end := min((i+1)*patchBlock, len(data))
		if xxh3.Hash128(data[i*patchBlock:end]) != h {
			t.Fatalf("%s: block %d's recorded hash does not match its content", filepath.Base(p), i)
		}
	}
}

// TestConcurrentPublishesKeepCopiesWhole: two publishes at once (two
// commands finishing together, or `docket publish` run by hand during
// one) take turns; each leaves the published copy byte for byte the
// warehouse and the kept block hashes true to the files they describe.
// Before the publish lock both could write the one spare, and one could
// rename the other's previous copy into place.
func TestConcurrentPublishesKeepCopiesWhole(t *testing.T) {
	defer func(g time.Duration) { spareGrace = g }(spareGrace)
	spareGrace = 0
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "warehouse.duckdb")
	exec1(t, path, "create table t as select range as i, repeat('x', 50) || range as s from range(100000)")
	for i := range 2 {
		exec1(t, path, fmt.Sprintf("insert into t select range, 'n%d' from range(10)", i))
		if _, err := Publish(ctx, path, "build", true); err != nil {
			t.Fatal(err)
		}
	}
	rp := ReadPath(path)
	for round := range 6 {
		exec1(t, path, fmt.Sprintf("insert into t select range, 'r%d' from range(%d)", round, 2000*(round+1)))
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for g := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[g] = Publish(ctx, path, "build", true)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		a, _ := os.ReadFile(path)
		b, _ := os.ReadFile(rp)
		if string(a) != string(b) {
			t.Fatalf("round %d: the published copy differs from the warehouse", round)
		}
		checkBlockHashes(t, rp)
		checkBlockHashes(t, sparePath(rp))
	}
}

// TestPublishRemovesCopiesLeftByAKilledPublish: a publish killed between
// its steps leaves a whole copy of the warehouse under a temporary name
// (a staged copy, or the previous copy kept by a hard link); the next
// publish removes it instead of leaving the disk space taken for good.
func TestPublishRemovesCopiesLeftByAKilledPublish(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "warehouse.duckdb")
	exec1(t, path, "create table t as select range as i from range(1000)")
	if _, err := Publish(ctx, path, "build", true); err != nil {
		t.Fatal(err)
	}
	rp := ReadPath(path)
	left := []string{
		filepath.Join(dir, "."+filepath.Base(rp)+".123456.tmp"),
		sparePath(rp) + ".1764770000000000000.tmp",
		blocksPath(sparePath(rp) + ".1764770000000000000.tmp"),
	}
	for _, p := range left {
		if err := os.WriteFile(p, []byte("left"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	other := filepath.Join(dir, ".notes.123.tmp") // not the publish's
	os.WriteFile(other, nil, 0o644)
	exec1(t, path, "insert into t values (1)")
	if _, err := Publish(ctx, path, "build", false); err != nil {
		t.Fatal(err)
	}
	for _, p := range left {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is still there", filepath.Base(p))
		}
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a file that is not the publish's was removed: %v", err)
	}
}
