package runner

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

func TestUDFCalled(t *testing.T) {
	m := &compiler.Manifest{UDFs: testFuncs}
	for _, tc := range []struct {
		sql  string
		want string
	}{
		{"select shout(x) from t", "shout"},
		{"select SHOUT (x) from t", "shout"},
		{"select 'shout(x)' as s -- shout(y)\n/* shout(z) */ from t", ""},
		{"select shout_more(x), t.shout(x), shouting from t", ""},
		{`select "shout"(x) from t`, ""},
	} {
		if got := m.UDFCalled(tc.sql); got != tc.want {
			t.Errorf("udfCalled(%q) = %q, want %q", tc.sql, got, tc.want)
		}
	}
}

func TestSQLDiagnostic(t *testing.T) {
	stmt := "create table x as\nselect 1,\n  x form y"
	msg := "Parser Error: syntax error at or near \"y\"\n\nLINE 3:   x form y\n                 ^"
	d := compiler.SQLDiagnostic(msg, stmt, 1)
	if d.Line != 2 || d.Col != 10 || d.Msg != `Parser Error: syntax error at or near "y"` {
		t.Errorf("got %+v", d)
	}
	long := "create table x as\n" + strings.Repeat("a, ", 40) + "nope from t"
	excerpt := "LINE 2: ...a, a, a, nope from t"
	lmsg := "Binder Error: Referenced column \"nope\" not found\n\n" + excerpt + "\n" + strings.Repeat(" ", strings.Index(excerpt, "nope")) + "^"
	d = compiler.SQLDiagnostic(lmsg, long, 1)
	if want := strings.Index(long[18:], "nope") + 1; d.Line != 1 || d.Col != want {
		t.Errorf("truncated: got %+v, want col %d", d, want)
	}
	if d := compiler.SQLDiagnostic("IO Error: boom", "x", 1); d.Line != 1 || d.Col != 1 {
		t.Errorf("no position: %+v", d)
	}
}

func TestInjectCTEs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"select 1", "with a as (x)\nselect 1"},
		{"-- c\nWITH b as (select 1) select * from b", "-- c\nWITH a as (x),\nb as (select 1) select * from b"},
		{"\n  with recursive r as (select 1) select 1", "\n  with recursive a as (x),\nr as (select 1) select 1"},
	} {
		if got := compiler.InjectCTEs(tc.in, []string{"a as (x)"}); got != tc.want {
			t.Errorf("injectCTEs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestManifestShape(t *testing.T) {
	m := parseFixture(t, "testdata/basic.txtar")
	b, err := json.Marshal(m.ManifestDoc())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Nodes map[string]struct {
			DependsOn struct{ Nodes []string } `json:"depends_on"`
			Config    struct {
				Materialized string   `json:"materialized"`
				UniqueKey    []string `json:"unique_key"`
				Tags         []string `json:"tags"`
			} `json:"config"`
		} `json:"nodes"`
		Sources   map[string]any      `json:"sources"`
		ParentMap map[string][]string `json:"parent_map"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	pl := doc.Nodes["model.fixture.page_log"]
	if pl.Config.Materialized != "incremental" || strings.Join(pl.Config.UniqueKey, ",") != "doc_id,page_number" ||
		strings.Join(pl.Config.Tags, ",") != "curated,log" || strings.Join(pl.DependsOn.Nodes, ",") != "model.fixture.stg_pages" {
		t.Errorf("page_log: %+v", pl)
	}
	if len(doc.Sources) != 2 || len(doc.ParentMap["model.fixture.doc_stats"]) != 3 {
		t.Errorf("sources %d, doc_stats parents %v", len(doc.Sources), doc.ParentMap["model.fixture.doc_stats"])
	}
}
