package render

import (
	"reflect"
	"testing"
)

// TestCallSites: calls found wherever the parser put them (output,
// if/for/set/call blocks, filters, macros defined in the file, nested
// calls), placed at the called name, with their string arguments.
func TestCallSites(t *testing.T) {
	src := "select 1\n  from {{ ref('a') }}\n" +
		"{% if x %}{{ source('s', \"t\") }}{% endif %}{% set y = ref(\"b\") | upper %}\n" +
		"{% for i in [config(materialized='table')] %}{{ other(ref(v)) }}{% endfor %}\n" +
		"{% macro m() %}\n   {{ ref('pkg', 'c') }}{% endmacro %}{% call other() %}{{ ref('d') }}{% endcall %}\n" +
		"{{ x.ref('not_me') }}{% set l = [ref('e'), 1] %}{{ ref('f') }}{% set k = [2] %}\n{% set j = [\n ref('g')] %}{{ ref('h') }}"
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tpl, err := env.Parse("m.sql", src)
	if err != nil {
		t.Fatal(err)
	}
	got := tpl.CallSites("ref", "source", "config")
	want := []CallSite{
		{Name: "ref", Args: []string{"a"}, Line: 2, Col: 11},
		{Name: "source", Args: []string{"s", "t"}, Line: 3, Col: 14},
		{Name: "ref", Args: []string{"b"}, Line: 3, Col: 55},
		{Name: "config", Args: nil, Line: 4, Col: 14},
		{Name: "ref", Args: []string{""}, Line: 4, Col: 55},
		{Name: "ref", Args: []string{"pkg", "c"}, Line: 6, Col: 7},
		{Name: "ref", Args: []string{"d"}, Line: 6, Col: 60},
		{Name: "ref", Args: []string{"e"}, Line: 7, Col: 34},
		{Name: "ref", Args: []string{"f"}, Line: 7, Col: 52},
		{Name: "ref", Args: []string{"g"}, Line: 9, Col: 2},
		{Name: "ref", Args: []string{"h"}, Line: 9, Col: 17},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}
