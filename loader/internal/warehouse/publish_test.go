package warehouse

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReadPath(t *testing.T) {
	for in, want := range map[string]string{
		"/p/warehouse.duckdb": "/p/warehouse.read.duckdb",
		"/p/data/wh.db":       "/p/data/wh.read.db",
		"/p/wh":               "/p/wh.read",
	} {
		if got := ReadPath(in); got != want {
			t.Errorf("ReadPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func count(t *testing.T, path, q string) int {
	t.Helper()
	db, err := Open(context.Background(), path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.SQL().QueryRow(q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func exec1(t *testing.T, path string, qs ...string) {
	t.Helper()
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		if _, err := db.SQL().Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestPublishSwapsTheCopyUnderOpenReaders: a reader that has the published
// copy open keeps its state; a new reader sees the next publish; publishing
// an unchanged warehouse copies nothing; a WAL left beside the copy by a
// client that wrote to it is removed, with a warning.
func TestPublishSwapsTheCopyUnderOpenReaders(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "warehouse.duckdb")
	exec1(t, path, "create table t as select range as i from range(10)")
	if st, _ := ReadStamp(path); st != nil {
		t.Fatal("nothing is published yet, but ReadStamp found a copy")
	}
	res, err := Publish(ctx, path, "load", false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Skipped != "" || res.Stamp.Bytes == 0 || res.Stamp.Method == "" {
		t.Fatalf("first publish: %+v", res)
	}
	st, err := ReadStamp(path)
	if err != nil || st == nil || !st.Current(path) || st.Command != "load" {
		t.Fatalf("stamp after publishing: %+v, %v", st, err)
	}
	again, err := Publish(ctx, path, "build", false)
	if err != nil || again.Skipped == "" {
		t.Fatalf("publishing an unchanged warehouse should copy nothing: %+v, %v", again, err)
	}

	old, err := Open(ctx, ReadPath(path), Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	exec1(t, path, "insert into t select range from range(5)")
	if st.Current(path) {
		t.Fatal("the stamp should see that the warehouse changed")
	}
	if _, err := Publish(ctx, path, "build", false); err != nil {
		t.Fatal(err)
	}
	var n int
	old.SQL().QueryRow("select count(*) from t").Scan(&n)
	if n != 10 {
		t.Fatalf("a reader holding the old copy saw %d rows, want its 10", n)
	}
	// duckdb-go caches database instances by path within a process: the
	// new reader is checked after the old one closed (the end-to-end test
	// in cli has both open at once, in other processes).
	old.Close()
	if n := count(t, ReadPath(path), "select count(*) from t"); n != 15 {
		t.Fatalf("a new reader sees %d rows, want 15", n)
	}

	// A client wrote to the published copy (opened read-write): its WAL
	// must not be replayed into the next copy.
	os.WriteFile(ReadPath(path)+".wal", []byte("not docket's"), 0o644)
	exec1(t, path, "insert into t values (99)")
	res, err = Publish(ctx, path, "run", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "read-only") {
		t.Fatalf("want a warning about the client's WAL, got %v", res.Warnings)
	}
	if _, err := os.Stat(ReadPath(path) + ".wal"); err == nil {
		t.Fatal("the stale WAL is still there")
	}
	if n := count(t, ReadPath(path), "select count(*) from t"); n != 16 {
		t.Fatalf("after the third publish a reader sees %d rows, want 16", n)
	}
}

// TestPublishRefusesWhileAnotherProcessWrites: a writer holding the
// warehouse (here a process of this test binary) means its file is not a
// completed state: Publish says who writes it and copies nothing.
func TestPublishRefusesWhileAnotherProcessWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.duckdb")
	exec1(t, path, "create table t as select 1 as i")
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "DOCKET_TEST_HOLD="+path)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "holding\n" {
		t.Fatalf("holder did not start: %q", line)
	}
	_, err := Publish(context.Background(), path, "build", false)
	var be *BusyError
	if !errors.As(err, &be) || be.PID != cmd.Process.Pid {
		t.Fatalf("want a BusyError naming pid %d, got %v", cmd.Process.Pid, err)
	}
	if _, err := os.Stat(ReadPath(path)); err == nil {
		t.Fatal("a copy was published while another process wrote the warehouse")
	}
}

// TestDeferPublishKeepsTheCopyAndListsTheLoad: after a load that found
// nothing new, the copy is not rewritten; the stamp takes the writer's
// state (the next command does not copy) and lists the load; the next
// real publish clears the list. Without a published copy nothing is
// deferred.
func TestDeferPublishKeepsTheCopyAndListsTheLoad(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "warehouse.duckdb")
	if ok, err := DeferPublish(path, UnpublishedLoad{RunID: "r0"}, FileState{}); ok || err != nil {
		t.Fatalf("DeferPublish without a published copy: %v %v", ok, err)
	}
	exec1(t, path, "create table t as select 1 as x")
	if _, err := Publish(ctx, path, "build", false); err != nil {
		t.Fatal(err)
	}
	copyBefore, _ := os.Stat(ReadPath(path))
	exec1(t, path, "create table runs as select 'r1' as run_id") // the load's run record
	finished := time.Date(2026, 12, 3, 4, 0, 0, 0, time.UTC)
	if ok, err := DeferPublish(path, UnpublishedLoad{RunID: "r1", FinishedAt: finished}, state(t, path)); !ok || err != nil {
		t.Fatalf("DeferPublish: %v %v", ok, err)
	}
	st, err := ReadStamp(path)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Current(path) || len(st.UnpublishedLoads) != 1 || !st.LatestUnpublishedLoad().Equal(finished) {
		t.Fatalf("stamp after DeferPublish: current %v, %+v", st.Current(path), st.UnpublishedLoads)
	}
	if copyAfter, _ := os.Stat(ReadPath(path)); !os.SameFile(copyBefore, copyAfter) {
		t.Error("DeferPublish replaced the copy")
	}
	if res, err := Publish(ctx, path, "build", false); err != nil || res.Skipped == "" {
		t.Fatalf("Publish after DeferPublish should find the copy current: %+v %v", res, err)
	}
	if n := count(t, ReadPath(path), "select count(*) from information_schema.tables where table_name = 'runs'"); n != 0 {
		t.Errorf("the copy has the deferred run's table")
	}
	exec1(t, path, "insert into t values (2)")
	if _, err := Publish(ctx, path, "build", false); err != nil {
		t.Fatal(err)
	}
	if st, _ := ReadStamp(path); len(st.UnpublishedLoads) != 0 || !st.LatestUnpublishedLoad().IsZero() {
		t.Errorf("a publish should clear the unpublished loads: %+v", st.UnpublishedLoads)
	}
}

// TestPublishPatchesTheSpareUnlessAReaderHasIt: from the third publish on,
// the copy is made by writing the changed blocks into the copy published
// before the current one, and is byte for byte the warehouse; a copy a
// reader has open is never written (the publish writes a new file, and
// the reader keeps reading its state).
func TestPublishPatchesTheSpareUnlessAReaderHasIt(t *testing.T) {
	defer func(g time.Duration) { spareGrace = g }(spareGrace)
	spareGrace = 0
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "warehouse.duckdb")
	exec1(t, path, "create table t as select range as i, repeat('x', 50) || range as s from range(300000)")
	publish := func(wantMethod string) *PublishResult {
		t.Helper()
		res, err := Publish(ctx, path, "build", false)
		if err != nil {
			t.Fatal(err)
		}
		if res.Stamp.Method != wantMethod && !(res.Stamp.Method == "reflink" && wantMethod != "patch") {
			t.Fatalf("published by %s, want %s", res.Stamp.Method, wantMethod)
		}
		a, _ := os.ReadFile(path)
		b, _ := os.ReadFile(ReadPath(path))
		if !bytes.Equal(a, b) {
			t.Fatalf("the %s copy differs from the warehouse (%d vs %d bytes)", res.Stamp.Method, len(b), len(a))
		}
		return res
	}
	grow := func(n int) {
		exec1(t, path, fmt.Sprintf("insert into t select range, 'new' from range(%d)", n))
	}
	publish("copy")
	grow(10)
	publish("copy") // the first copy becomes the spare
	grow(10)
	if _, err := os.Stat(sparePath(ReadPath(path))); err != nil {
		t.Skip("no spare kept (reflinks here): nothing to patch")
	}
	res := publish("patch")
	if res.Stamp.Written == 0 || res.Stamp.Written >= res.Stamp.Bytes/2 {
		t.Fatalf("patch wrote %d of %d bytes", res.Stamp.Written, res.Stamp.Bytes)
	}
	if n := count(t, ReadPath(path), "select count(*) from t"); n != 300020 {
		t.Fatalf("the patched copy has %d rows, want 300020", n)
	}

	// A reader opens the published copy; after the next publish it is the
	// spare, which the one after must not write.
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "DOCKET_TEST_READ="+ReadPath(path))
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	out := bufio.NewReader(stdout)
	if line, _ := out.ReadString('\n'); line != "holding\n" {
		t.Fatalf("reader did not start: %q", line)
	}
	grow(1000)
	publish("patch") // the other copy
	grow(1000)
	publish("copy") // the reader's copy is the spare: not written
	grow(1000)
	publish("patch") // the new copy of the last publish is free
	stdin.Write([]byte("\n"))
	if line, _ := out.ReadString('\n'); line != "300020\n" {
		t.Fatalf("the reader now reads %q rows, want its 300020", line)
	}
	cmd.Wait()
	if n := count(t, ReadPath(path), "select count(*) from t"); n != 303020 {
		t.Fatalf("the published copy has %d rows, want 303020", n)
	}
}

// TestDeferPublishAfterAPublishKeepsItsStamp: when a publish has already
// copied the writer's state (another command published between the load
// and its DeferPublish), the stamp is re-read under the publish lock and
// left as that publish wrote it: the copy has the load's record, so the
// load is not listed as unpublished.
func TestDeferPublishAfterAPublishKeepsItsStamp(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "warehouse.duckdb")
	exec1(t, path, "create table t as select 1 as x")
	if _, err := Publish(ctx, path, "build", false); err != nil {
		t.Fatal(err)
	}
	exec1(t, path, "create table runs as select 'r1' as run_id")
	if _, err := Publish(ctx, path, "publish", false); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(stampPath(ReadPath(path)))
	if ok, err := DeferPublish(path, UnpublishedLoad{RunID: "r1"}, state(t, path)); !ok || err != nil {
		t.Fatalf("DeferPublish: %v %v", ok, err)
	}
	after, _ := os.ReadFile(stampPath(ReadPath(path)))
	if string(before) != string(after) {
		t.Errorf("DeferPublish rewrote a current stamp:\n%s\n->\n%s", before, after)
	}
}

// state is the file's state (a load's, as it closed the file).
func state(t *testing.T, path string) FileState {
	t.Helper()
	st, err := StateOf(path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestDeferPublishAfterAnotherWriter: when another command wrote the
// warehouse between the end of a load that found nothing and its
// DeferPublish, the stamp must not take the file's state (the copy lacks
// that command's changes, and its own publish would then find the copy
// "current" and skip): DeferPublish declines and the publish copies.
func TestDeferPublishAfterAnotherWriter(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "warehouse.duckdb")
	exec1(t, path, "create table t as select 1 as x")
	if _, err := Publish(ctx, path, "build", false); err != nil {
		t.Fatal(err)
	}
	exec1(t, path, "create table runs as select 'r1' as run_id") // the load's run record
	after := state(t, path)
	exec1(t, path, "create table built as select 42 as n") // another command, e.g. a build
	if ok, err := DeferPublish(path, UnpublishedLoad{RunID: "r1"}, after); ok || err != nil {
		t.Fatalf("DeferPublish after another writer: %v %v, want false", ok, err)
	}
	if _, err := Publish(ctx, path, "build", false); err != nil {
		t.Fatal(err)
	}
	if n := count(t, ReadPath(path), "select count(*) from information_schema.tables where table_name = 'built'"); n != 1 {
		t.Errorf("the published copy lacks the other command's table")
	}
}
