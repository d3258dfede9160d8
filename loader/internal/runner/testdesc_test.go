package runner

import (
	"strings"
	"testing"
)

// TestDataTestDescription: a data test's description: (dbt 1.9) is the
// test node's description (doc() rendered, as a model's), not an argument:
// it was dropped for a built-in test and passed to a custom generic test
// as a keyword argument.
func TestDataTestDescription(t *testing.T) {
	dir := writeProbe(t, shapeProject("td", map[string]string{
		"models/m.sql":               "select 1 as id",
		"models/ids.md":              "{% docs ids_doc %}Every id once.{% enddocs %}",
		"tests/generic/positive.sql": "{% test positive(model, column_name) %}\nselect * from {{ model }} where {{ column_name }} < 0\n{% endtest %}",
		"models/m.yml": "models:\n  - name: m\n    columns:\n      - name: id\n        data_tests:\n" +
			"          - unique:\n              description: '{{ doc(\"ids_doc\") }}'\n" +
			"          - positive:\n              description: no negative ids\n",
	}))
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	got := map[string]string{}
	for _, n := range m.Nodes {
		if n.TestMetadata != nil {
			got[n.TestMetadata.Name] = n.Description
			if _, ok := n.TestMetadata.Kwargs["description"]; ok {
				t.Errorf("%s: description passed as an argument: %v", n.Name, n.TestMetadata.Kwargs)
			}
		}
	}
	if got["unique"] != "Every id once." || got["positive"] != "no negative ids" {
		t.Errorf("test descriptions %q", got)
	}
	rr := shapeRun(t, shapeDB(t, dir), dir, "build", nil)
	if got := idStatuses(rr); strings.Count(got, " pass") != 2 || strings.Contains(got, "error") {
		t.Errorf("run:\n%s\nwant both tests passing", got)
	}
	for _, w := range m.Warnings {
		if strings.Contains(w.String(), "description") {
			t.Errorf("warning: %s", w)
		}
	}
}
