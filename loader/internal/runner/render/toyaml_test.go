package render

import (
	"math/big"
	"testing"
	"time"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// TestToYAMLAsDbt: toyaml is yaml.safe_dump(sort_keys=False) as dbt's:
// a dict's keys in its own order (sort_keys=true sorts them), floats
// with their point, a lone scalar ended by "...", a date and a datetime
// as their text, and a Decimal (which safe_dump refuses) the default.
// On main the keys came sorted, a date printed {} and a Decimal its
// internals.
func TestToYAMLAsDbt(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	ctx := map[string]any{"d": exec.NewDecimal(big.NewInt(150), 2), "day": Date{at}, "ts": Datetime{at}}
	wantRendered(t, env, ctx, []struct{ src, out string }{
		{`{{ toyaml({'z': 1, 'a': 2.0, 'm': {'y': none, 'b': true}}) }}`, "z: 1\na: 2.0\nm:\n  y: null\n  b: true\n"},
		{`{{ toyaml({'z': 1, 'a': 2}, sort_keys=true) }}|{{ toyaml(fromyaml('b: 1\na: [x]')) }}`, "a: 2\nz: 1\n|b: 1\na:\n  - x\n"},
		{`{{ toyaml({'day': day, 'ts': ts}) }}|{{ toyaml(day) }}|{{ toyaml('abc') }}|{{ toyaml(1e20) }}`,
			"day: 2024-01-02\nts: 2024-01-02 03:04:05+00:00\n|2024-01-02\n...\n|abc\n...\n|1.0e+20\n...\n"},
		{`{{ toyaml({'x': d}, 'refused') }}|{{ toyaml(d) is none }}`, "refused|True"},
	})
}
