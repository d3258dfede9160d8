package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// toYAML is dbt's toyaml(value, default=None, sort_keys=False):
// yaml.safe_dump of v with a dict's keys in its own order (sort_keys
// sorts them), a top-level scalar ended by "...", a date as its
// ISO text; a value safe_dump cannot represent (a Decimal, an object)
// gives the default. It wrote Go's YAML of the Go map: keys always
// sorted, a date {} and a Decimal its internals.
func toYAML(a Args) (any, error) {
	if len(a.Raw) == 0 {
		return nil, fmt.Errorf("toyaml() needs a value")
	}
	sortKeys := false
	if s, ok := a.Kw["sort_keys"]; ok {
		sortKeys = exec.AsValue(s).IsTrue()
	} else if len(a.Raw) > 2 {
		sortKeys = a.Raw[2].IsTrue()
	}
	out, ok := pyYAMLDump(PyValue(a.Raw[0]), sortKeys) // pyyaml.go
	if !ok {
		return defaultArg(a, 1, "default"), nil
	}
	return out, nil
}

// pyYAMLFloat is a float as PyYAML writes it: repr with a point (2.0,
// 1.0e+20), .nan, .inf, -.inf.
func pyYAMLFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	}
	s := strings.ToLower(exec.AsValue(f).String()) // Python's repr: 1234567.0, 1e+16
	if mant, exp, isExp := strings.Cut(s, "e"); isExp {
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		return mant + "e" + exp
	}
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
