package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestSampleRefused: dbt 1.10's --sample is refused with what docket has
// instead, before anything runs (it was Go's "flag provided but not
// defined: -sample" and the whole flag list, saying nothing of sample mode);
// an empty --sample= too (review30: it ran the whole build).
func TestSampleRefused(t *testing.T) {
	for _, tc := range []struct{ cmd, arg, shown string }{{"build", "--sample=3 days", `"3 days"`}, {"run", "--sample=", `""`}} {
		cmd := tc.cmd
		var out, errb bytes.Buffer
		code := RunModels(context.Background(), cmd, []string{"-s", "orders", tc.arg}, nil, nil, &out, &errb)
		if code != ExitUsage || !strings.Contains(errb.String(), `docket `+cmd+`: --sample `+tc.shown+` (dbt 1.10's sample mode`) ||
			!strings.Contains(errb.String(), "nothing was run") || strings.Contains(errb.String(), "flag provided but not defined") {
			t.Errorf("%s --sample: exit %d, stderr %q", cmd, code, errb.String())
		}
	}
}
