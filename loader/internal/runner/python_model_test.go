package runner

import (
	"strings"
	"testing"
)

// TestPythonModelIsNamed: a dbt Python model is warned at its file with
// what it is and why it is not built, and a SQL model's ref() to it is an
// error at the ref that names the Python file (it was "no model or seed
// named"), never a missing table at run time.
func TestPythonModelIsNamed(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"models/m/a.sql":       "select 1 as id",
		"models/py/scores.py":  "def model(dbt, session):\n    return dbt.ref('a').df()\n",
		"models/m/uses_py.sql": "select *\nfrom {{ ref('scores') }}",
	})
	m, diags := parseProbe(t, dir)
	if len(m.Warnings) != 1 || !strings.HasPrefix(m.Warnings[0].String(), "models/py/scores.py:1:1: ") ||
		!strings.Contains(m.Warnings[0].Msg, "Python model") || !strings.Contains(m.Warnings[0].Msg, "ref('scores') is an error") {
		t.Errorf("warnings: %v", m.Warnings)
	}
	if len(diags) != 1 {
		t.Fatalf("diagnostics: %v", diags)
	}
	d := diags[0]
	if d.Path != "models/m/uses_py.sql" || d.Line != 2 || !strings.Contains(d.Msg, `ref("scores")`) ||
		!strings.Contains(d.Msg, "Python model (models/py/scores.py)") || !strings.Contains(d.Msg, "does not build") {
		t.Errorf("ref to the Python model: %s", d)
	}
}
