package executor

import "testing"

// TestContractKinds: the kinds match DuckDB's Python cursor.description
// type codes (GetTypeToPython), and castKeeps only where every value
// survives.
func TestContractKinds(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"INTEGER", "HUGEINT"}, {"DECIMAL(18,3)", "DOUBLE"}, {"UTINYINT", "FLOAT"},
		{"TIMESTAMP", "TIMESTAMP WITH TIME ZONE"}, {"TIMESTAMP_NS", "TIMESTAMP_S"},
		{"TIME", "TIME WITH TIME ZONE"}, {"INTEGER[]", "VARCHAR[]"}, {"STRUCT(a INTEGER)", "MAP(VARCHAR, INTEGER)"},
		{"BLOB", "BIT"},
	} {
		if contractKind(c.a) != contractKind(c.b) {
			t.Errorf("%s and %s: kinds %s and %s, want one", c.a, c.b, contractKind(c.a), contractKind(c.b))
		}
	}
	for _, c := range []struct{ a, b string }{
		{"VARCHAR", "INTEGER"}, {"DATE", "TIMESTAMP"}, {"BOOLEAN", "INTEGER"}, {"UUID", "VARCHAR"}, {"JSON", "VARCHAR"}, {"INTEGER[3]", "INTEGER[]"},
	} {
		if contractKind(c.a) == contractKind(c.b) {
			t.Errorf("%s and %s: both %s, want two kinds", c.a, c.b, contractKind(c.a))
		}
	}
	for _, c := range []struct {
		have, want string
		keeps      bool
	}{
		{"INTEGER", "BIGINT", true}, {"BIGINT", "INTEGER", false}, {"UINTEGER", "BIGINT", true}, {"INTEGER", "UBIGINT", false},
		{"UINTEGER", "INTEGER", false}, {"INTEGER", "DOUBLE", true}, {"BIGINT", "DOUBLE", false}, {"FLOAT", "DOUBLE", true},
		{"DOUBLE", "FLOAT", false}, {"DOUBLE", "INTEGER", false}, {"DECIMAL(10,2)", "DECIMAL(12,3)", true},
		{"DECIMAL(10,2)", "DECIMAL(10,3)", false}, {"DECIMAL(10,2)", "DOUBLE", true}, {"DECIMAL(38,2)", "DOUBLE", false},
		{"INTEGER", "DECIMAL(12,2)", true}, {"INTEGER", "DECIMAL(10,2)", false}, {"TIMESTAMP_MS", "TIMESTAMP", true},
		{"TIMESTAMP", "TIMESTAMP WITH TIME ZONE", false}, {"TIMESTAMP_NS", "TIMESTAMP", false},
	} {
		if got := castKeeps(c.have, c.want); got != c.keeps {
			t.Errorf("castKeeps(%s, %s) = %v, want %v", c.have, c.want, got, c.keeps)
		}
	}
}
