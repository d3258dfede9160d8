package render

import (
	"encoding/json"
	"testing"
)

// TestYAMLDates: a YAML date is Python's datetime.date, as safe_load
// gives it (vars, --vars, fromyaml, meta): it prints 2024-01-02, has the
// date methods, shows datetime.date(2024, 1, 2) in a list and writes
// "2024-01-02" as JSON; a date and time with a zone is an aware datetime.
// Main printed Go's time.Time: "2024-01-02 00:00:00 +0000 UTC".
func TestYAMLDates(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{"{% set y = fromyaml('d: 2024-01-02\\nz: 2024-01-02T10:20:30Z') %}{{ y.d }}|{{ y.z }}|{{ [y.d] }}|{{ y.d.weekday() }}|{{ y.d.year }}|{{ y.z.isoformat() }}",
			"2024-01-02|2024-01-02 10:20:30+00:00|[datetime.date(2024, 1, 2)]|1|2024|2024-01-02T10:20:30+00:00"},
	})
	v, err := DecodeYAMLMapping("d: 2024-01-02")
	if err != nil {
		t.Fatal(err)
	}
	d, ok := v["d"].(Date)
	if !ok {
		t.Fatalf("--vars d: %T %v, want a date", v["d"], v["d"])
	}
	if b, err := json.Marshal(d); err != nil || string(b) != `"2024-01-02"` {
		t.Errorf("JSON %s %v", b, err)
	}
}
