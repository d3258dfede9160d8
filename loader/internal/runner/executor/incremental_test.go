package executor

import (
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// TestIncrementalStatements: on_schema_change and incremental_strategy as
// SQL, without a database: the new rows gained b (varchar), lost c and
// changed a's type.
func TestIncrementalStatements(t *testing.T) {
	src := []colDef{{"id", "INTEGER"}, {"a", "BIGINT"}, {"b", "VARCHAR"}}
	tgt := []colDef{{"id", "INTEGER"}, {"a", "INTEGER"}, {"c", "DATE"}}
	node := func(change, strategy string, key ...string) *compiler.Node {
		n := &compiler.Node{Path: "models/m.sql", Relation: "m.m"}
		n.Config.OnSchemaChange, n.Config.IncrementalStrategy, n.Config.UniqueKey = change, strategy, key
		return n
	}
	cases := []struct {
		change       string
		alters, cols []string
	}{
		{"ignore", nil, []string{"id", "a"}},
		{"append_new_columns", []string{"alter table m.m add column b VARCHAR"}, []string{"id", "a", "b"}},
		{"sync_all_columns", []string{"alter table m.m add column b VARCHAR", "alter table m.m drop column c",
			"alter table m.m alter column a type BIGINT"}, []string{"id", "a", "b"}},
	}
	for _, c := range cases {
		alters, cols, err := schemaChange(node(c.change, "append", "id"), src, tgt)
		if err != nil || !reflect.DeepEqual(alters, c.alters) || !reflect.DeepEqual(cols, c.cols) {
			t.Errorf("%s: alters %q, cols %q, %v", c.change, alters, cols, err)
		}
	}
	if _, _, err := schemaChange(node("fail", "append"), src, tgt); err == nil || !strings.Contains(err.Error(), "added [b], removed [c], type changed [a]") {
		t.Errorf("fail: %v", err)
	}
	if _, _, err := schemaChange(node("ignore", "append", "gone"), src, tgt); err == nil || !strings.Contains(err.Error(), `unique_key column "gone"`) {
		t.Errorf("unknown unique_key: %v", err)
	}
	dml := map[string][]string{
		"append": {"insert into m.m (id, a) select id, a from tmp"},
		"delete+insert": {"delete from m.m as DBT_INTERNAL_DEST using tmp as DBT_INTERNAL_SOURCE where DBT_INTERNAL_DEST.id is not distinct from DBT_INTERNAL_SOURCE.id",
			"insert into m.m (id, a) select id, a from tmp"},
		"merge": {"merge into m.m as DBT_INTERNAL_DEST using tmp as DBT_INTERNAL_SOURCE on (DBT_INTERNAL_DEST.id is not distinct from DBT_INTERNAL_SOURCE.id)" +
			" when matched then update set a = DBT_INTERNAL_SOURCE.a when not matched then insert (id, a) values (DBT_INTERNAL_SOURCE.id, DBT_INTERNAL_SOURCE.a)"},
	}
	for strategy, want := range dml {
		if got, err := incrementalDML(node("ignore", strategy, "id"), "tmp", []string{"id", "a"}, nil); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %q", strategy, got)
		}
	}
}
