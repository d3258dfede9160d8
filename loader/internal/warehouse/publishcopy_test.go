package warehouse

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopiedFolderReadsItsPublishedCopy (review40's LOW 8): a project
// folder copied with cp -a holds the same warehouse under another inode;
// its published copy is current for it (main's stamp compared the inode:
// `docket sql` there said the warehouse "changed since (a command is
// running, failed or was interrupted)"). A copy made without its times
// says it is another file and what to run.
func TestCopiedFolderReadsItsPublishedCopy(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "proj")
	path := filepath.Join(dir, "warehouse.duckdb")
	exec1(t, path, "create table t as select 1 as x")
	if _, err := Publish(ctx, path, "build", false); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		flag, want string
	}{{"-a", ""}, {"-r", "is another file than the one it was published from"}} {
		to := filepath.Join(t.TempDir(), "copy")
		if out, err := exec.Command("cp", tc.flag, dir, to).CombinedOutput(); err != nil {
			t.Fatalf("cp %s: %v %s", tc.flag, err, out)
		}
		cp := filepath.Join(to, "warehouse.duckdb")
		st, err := ReadStamp(cp)
		if err != nil || st == nil {
			t.Fatalf("cp %s: stamp %v %v", tc.flag, st, err)
		}
		note := StaleNote(cp, st)
		if tc.want == "" && (note != "" || !st.Current(cp)) {
			t.Errorf("cp %s: the copy's published copy should be current, note %q", tc.flag, note)
		}
		if tc.want != "" && (!strings.Contains(note, tc.want) || !strings.Contains(note, "`docket publish`")) {
			t.Errorf("cp %s: note %q, want one saying %q and what to run", tc.flag, note, tc.want)
		}
		if res, err := Publish(ctx, cp, "publish", false); err != nil || (tc.want == "") != (res.Skipped != "") {
			t.Errorf("cp %s: publish %+v %v", tc.flag, res, err)
		}
	}
}
