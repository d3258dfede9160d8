package compiler

import (
	"regexp"
	"strings"
)

// fixtureLiteral writes a unit test's given or expected value as SQL the
// way dbt does: dbt reads the YAML with PyYAML and casts str() of each
// Python value, so a list is `[1, 2, 3]` / `['a', 'b']`, a mapping
// `{'k': 'v'}` (DuckDB casts both to LIST and STRUCT/MAP types), and a
// plain timestamp with an offset (`2013-11-03 00:00:00-0`, a datetime to
// PyYAML) `2013-11-03 00:00:00+00:00`. Other values as sqlLiteral.
func fixtureLiteral(v any) string {
	switch t := v.(type) {
	case []any, map[string]any, map[any]any:
		return sqlLiteral(pyRepr(t))
	case string:
		if ts, ok := pyTimestamp(t); ok {
			return sqlLiteral(ts)
		}
	}
	return sqlLiteral(v)
}

// pyTimestampRe is PyYAML's timestamp with a time and a UTC offset (the
// forms yaml.v3 leaves as strings).
var pyTimestampRe = regexp.MustCompile(`^(\d{4}-\d{1,2}-\d{1,2})(?:[Tt]|[ \t]+)(\d{1,2}:\d{2}:\d{2}(?:\.\d*)?)[ \t]*([-+])(\d{1,2})(?::(\d{2}))?$`)

// pyTimestamp is str() of the datetime PyYAML reads s as, when it reads
// one with an offset: `2013-11-03 00:00:00-0` is `2013-11-03 00:00:00+00:00`.
func pyTimestamp(s string) (string, bool) {
	g := pyTimestampRe.FindStringSubmatch(strings.TrimSpace(s))
	if g == nil {
		return "", false
	}
	hh, mm := g[4], g[5]
	if len(hh) == 1 {
		hh = "0" + hh
	}
	if mm == "" {
		mm = "00"
	}
	sign := g[3]
	if hh == "00" && mm == "00" {
		sign = "+" // Python writes a zero offset as +00:00
	}
	return g[1] + " " + g[2] + sign + hh + ":" + mm, true
}
