package cli

import (
	"fmt"

	"github.com/docket-dev/docket/loader/internal/runner"
)

// snapshotLine is a snapshot's progress line: "OK snapshotted
// snapshots.x ... [INSERT 3 in 0.02s]".
func snapshotLine(r runner.Result, rel, secs string) (desc, tag string) {
	switch r.Status {
	case runner.StatusSuccess:
		return "OK snapshotted " + rel, fmt.Sprintf("[INSERT %d %s]", r.AdapterResponse.RowsAffected, secs)
	case runner.StatusError:
		return "ERROR snapshotting " + rel, "[ERROR " + secs + "]"
	}
	return "SKIP snapshot " + rel, "[SKIP]"
}
