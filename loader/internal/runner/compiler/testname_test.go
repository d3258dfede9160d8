package compiler

import "testing"

// TestGenericTestNamesAsDbt: generic tests are named as dbt names them
// (the names and compiled-file aliases of dbt's classic jaffle_shop).
func TestGenericTestNamesAsDbt(t *testing.T) {
	orders := &Node{Name: "orders", ResourceType: Model}
	for _, tc := range []struct {
		s           testSpec
		name, alias string
	}{
		{testSpec{kind: "relationships", column: "customer_id", args: map[string]any{"to": "ref('customers')", "field": "customer_id"}},
			"relationships_orders_customer_id__customer_id__ref_customers_", ""},
		{testSpec{kind: "accepted_values", column: "status", args: map[string]any{"values": []any{"placed", "shipped", "completed", "return_pending", "returned"}}},
			"accepted_values_orders_status__placed__shipped__completed__return_pending__returned", "accepted_values_orders_1ce6ab157c285f7cd2ac656013faf758"},
		{testSpec{kind: "not_null", column: "order_id"}, "not_null_orders_order_id", ""},
		// a dict argument names the test from its values in the file's
		// order (dbt: list(arg_val.values())); main sorted its keys
		{testSpec{kind: "expect_x", args: map[string]any{"opts": map[string]any{"zeta": "z1", "alpha": "a1"}},
			keyOrder: map[string][]string{"opts": {"zeta", "alpha"}}}, "expect_x_orders_z1__a1", ""},
		{testSpec{kind: "dbt_utils.expression_is_true", args: map[string]any{"expression": "amount >= 0"}},
			"dbt_utils_expression_is_true_orders_amount_0", ""},
	} {
		name, alias := genericTestName(tc.s, orders)
		if tc.alias == "" {
			tc.alias = tc.name
		}
		if name != tc.name || alias != tc.alias {
			t.Errorf("%s: %s / %s, want %s / %s", tc.s.kind, name, alias, tc.name, tc.alias)
		}
	}
}
