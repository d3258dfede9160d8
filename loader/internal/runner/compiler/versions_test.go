package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestVersionedRefIsAnError: ref('dim', v=2) read the unversioned dim in
// silence; docket has no model versions, so it is an error at the call.
func TestVersionedRefIsAnError(t *testing.T) {
	_, diags := compilertest.Compile(t, map[string]string{
		"models/dim.sql": "select 1 as id",
		"models/use.sql": "select *\nfrom {{ ref('dim', v=2) }}",
		"models/old.sql": "select * from {{ ref('dim', version=1) }}",
	})
	got := strings.Join(compilertest.Strings(diags), "\n")
	for _, want := range []string{`models/use.sql:2:9: ref("dim", v=2): docket does not support model versions`, `models/old.sql:1:18: ref("dim", v=1)`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}
