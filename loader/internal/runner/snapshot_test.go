package runner

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// TestSnapshotGolden runs testdata/snapshots/snapshots.txtar (four loads:
// insert, change, delete, a deleted key back; both strategies; the three
// hard_deletes modes; a composite key) with a frozen clock that moves one
// hour per snapshot run.
func TestSnapshotGolden(t *testing.T) {
	base := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	calls := 0
	compiler.SnapshotNow = func() time.Time { calls++; return base.Add(time.Duration(calls) * time.Hour) }
	defer func() { compiler.SnapshotNow = time.Now }()
	f := "testdata/snapshots/snapshots.txtar"
	got := runFixture(t, f)
	golden := strings.TrimSuffix(f, ".txtar") + ".golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("transcript differs from %s (run with -update to accept):\n%s", golden, diffLines(string(want), got))
	}
}
