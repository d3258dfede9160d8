package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestPositionsAfterAQuotedRelation: the '{{ this }}' rewrite (render's
// quotedRelations) inserts text before parsing; a diagnostic after it, on
// its line or a later one, is still placed in the file as written
// (review30's finding on 161bd33: 17 bytes too far per rewrite, or 1:1).
func TestPositionsAfterAQuotedRelation(t *testing.T) {
	for _, tc := range []struct{ sql, want string }{
		{"select '{{ this }}' as t\nfrom x\n-- line three\nwhere 1 = 1 and {{ ref('nope') }} is not null\n", "models/a.sql:4:20: "},
		{"select '{{ this }}' a, '{{ this }}' b, '{{ this }}' c\n{% set l = [1, 2] %}\nwhere {{ ref('nope') }} is null\n", "models/a.sql:3:10: "},
		{"select '{{ this }}', {{ ref('nope') }}", "models/a.sql:1:25: "},
	} {
		_, diags := compilertest.Compile(t, map[string]string{"models/a.sql": tc.sql})
		got := compilertest.Strings(diags)
		if len(got) != 1 || !strings.HasPrefix(got[0], tc.want+`ref("nope")`) {
			t.Errorf("%q: %q, want %s...", tc.sql, got, tc.want)
		}
	}
}
