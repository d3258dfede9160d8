package compiler_test

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler/compilertest"
)

// TestGenericTestArgsRenderNatively: a test argument that is Jinja is
// rendered at parse as dbt's test builder does, natively, so values:
// "{{ var('methods') }}" is the var's list (it was the string, and
// accepted_values refused it: "needs values: [...]").
func TestGenericTestArgsRenderNatively(t *testing.T) {
	m, diags := compilertest.Compile(t, map[string]string{
		"project.yaml":   "version: 1\nname: mem\nvars:\n  methods: ['credit_card', 'coupon']\n",
		"models/pay.sql": "select 'coupon' as method, 1 as n",
		"models/pay.yml": "version: 2\nmodels:\n  - name: pay\n    columns:\n      - name: method\n        data_tests:\n          - accepted_values:\n              arguments:\n                values: \"{{ var('methods') }}\"\n      - name: n\n        data_tests:\n          - accepted_values:\n              values: \"{{ [1, 2] }}\"\n              quote: \"{{ false }}\"\n",
	})
	if len(diags) > 0 {
		t.Fatal(compilertest.Strings(diags))
	}
	var sqls []string
	for _, n := range m.Nodes {
		if n.TestMetadata != nil && n.TestMetadata.Name == "accepted_values" {
			sqls = append(sqls, n.Name+": "+n.CompiledCode)
		}
	}
	got := strings.Join(sqls, "\n")
	for _, want := range []string{"accepted_values_pay_method__credit_card__coupon: ", "not in ('credit_card', 'coupon')", "not in (1, 2)"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}
