package runner

import (
	"context"
	"strings"
	"testing"
)

// TestQuotedRelationIsDbtDuckdbsName: '{{ this }}', '{{ ref(..) }}' and
// '{{ source(..) }}' written as a SQL string literal land dbt-duckdb's
// "database"."schema"."identifier" in the data, in a model, in a post-hook
// string and in a macro the hook calls (an audit table's model column):
// they landed docket's two-part 'main.m' (robust29's Left). So does a
// relation inside a longer literal ('x{{ this }}', 'it”s {{ ref('b') }}'),
// which stayed two-part (robust30's Left); this.identifier is as before, and
// a relation printed as SQL stays two-part, after a quote in a comment too.
func TestQuotedRelationIsDbtDuckdbsName(t *testing.T) {
	files := shapeProject("qr", map[string]string{
		"models/src.yml": "version: 2\nsources:\n  - name: raw\n    schema: raw\n    tables:\n      - name: events\n",
		"models/b.sql":   "select 1 as id",
		"models/m.sql": "{{ config(materialized='table', post_hook=[\"insert into raw.audit select '{{ this }}', 'hook'\", \"{{ audit() }}\"]) }}\n" +
			"-- the model's audit: don't print it two-part\n/* it's SQL */ select '{{ this }}' as t, '{{ ref(\"b\") }}' as r, '{{ source('raw', 'events') }}' as s, " +
			"'{{ this.identifier }}' as i, 'x{{ this }}' as x, 'it''s {{ ref('b') }}.' as y, (select count(*) from {{ ref('b') }}) as n",
		"macros/audit.sql": "{% macro audit() %}insert into raw.audit select '{{ this }}', 'macro'{% endmacro %}",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	for _, q := range []string{"create schema raw", "create table raw.events (id int)", "create table raw.audit (model varchar, via varchar)"} {
		if _, err := db.SQL().ExecContext(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	shapeRun(t, db, dir, "build", nil)
	rows := func(q string) string { return strings.Join(queryStrings(t, db.SQL(), q), " | ") }
	if got, want := rows("select concat_ws(' ', t, r, s, i, x, y, n) from test_schema.m"),
		`"test"."test_schema"."m" "test"."test_schema"."b" "test"."raw"."events" m x"test"."test_schema"."m" it's "test"."test_schema"."b". 1`; got != want {
		t.Errorf("model row %s\nwant      %s", got, want)
	}
	if got, want := rows("select model || ' ' || via from raw.audit order by via"), `"test"."test_schema"."m" hook | "test"."test_schema"."m" macro`; got != want {
		t.Errorf("audit rows %s\nwant       %s", got, want)
	}
}

// TestQuotedIdentifierOpensNoLiteral: an apostrophe inside a double-quoted
// identifier ("owner's id") opens no string literal, so a relation
// printed as SQL after it stays two-part (a view naming the warehouse's
// catalog breaks when a reader opens the file under another name), and a
// literal after it still gets dbt-duckdb's three-part name.
func TestQuotedIdentifierOpensNoLiteral(t *testing.T) {
	files := shapeProject("qi", map[string]string{
		"models/b.sql": "select 1 as id",
		"models/v.sql": "{{ config(materialized='view') }}\n" +
			"select id as \"owner's id\", 'from {{ ref('b') }}' as src, id as \"a \"\"quoted\"\" name\" from {{ ref('b') }}",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	rr := shapeRun(t, db, dir, "build", nil)
	var got string
	for _, r := range rr.Results {
		if r.UniqueID == "model.qi.v" {
			got = r.CompiledCode
		}
	}
	if want := `select id as "owner's id", 'from "test"."test_schema"."b"' as src, id as "a ""quoted"" name" from test_schema.b`; strings.TrimSpace(got) != want {
		t.Errorf("compiled\n%s\nwant\n%s", strings.TrimSpace(got), want)
	}
}

// TestDollarAndEscapeLiteralsOfARelation: the literals DuckDB's lexer
// knows besides '..' are literals to the render's scan too: a relation
// printed inside $$..$$, $tag$..$tag$ or E'..' is dbt-duckdb's three-part
// name (it stayed two-part), and an apostrophe inside one (E'it\'s',
// $$it's$$) or inside a nested block comment opens no literal, so a
// relation printed as SQL after it stays two-part (it became three-part:
// a view naming the warehouse's catalog breaks when a reader opens the
// file under another name).
func TestDollarAndEscapeLiteralsOfARelation(t *testing.T) {
	files := shapeProject("dl", map[string]string{
		"models/b.sql": "select 1 as id",
		"models/v.sql": "{{ config(materialized='view') }}\n" +
			"select $${{ ref('b') }}$$ as d, $q$it's {{ this }}$q$ as t, E'it\\'s {{ ref('b') }}' as e, e'\\'' as q, " +
			"(select count(*) from {{ ref('b') }}) as n, $$it's$$ as a, id /* a /* b */ it's */ from {{ ref('b') }}",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	rr := shapeRun(t, db, dir, "build", nil)
	var got string
	for _, r := range rr.Results {
		if r.UniqueID == "model.dl.v" {
			got = r.CompiledCode
			if r.Status != "success" {
				t.Errorf("v: %s %s", r.Status, r.Message)
			}
		}
	}
	want := `select $$"test"."test_schema"."b"$$ as d, $q$it's "test"."test_schema"."v"$q$ as t, E'it\'s "test"."test_schema"."b"' as e, e'\'' as q, ` +
		`(select count(*) from test_schema.b) as n, $$it's$$ as a, id /* a /* b */ it's */ from test_schema.b`
	if strings.TrimSpace(got) != want {
		t.Errorf("compiled\n%s\nwant\n%s", strings.TrimSpace(got), want)
	}
}
