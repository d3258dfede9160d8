package runner

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// TestYAMLMappingsKeepTheirOrder: a mapping in dbt_project.yml's vars, in
// --vars or in run-operation's --args reaches templates as dbt's
// yaml.safe_load gives it, a dict in the file's key order; log() and
// print() of any dict print it in its order; a dict's values(), items()
// and get() give its nested dicts as they are. docket decoded YAML into Go
// maps, so {{ var('m') }}, for-loops, keys(), items() and log(d) came
// sorted (and log of a {'b': 1, 'a': 2} literal too), where dbt keeps
// the order: a macro generating columns from a var mapping wrote them in
// another order without a word. fromjson() and fromyaml() (json.loads,
// yaml.safe_load) keep the text's order too (they sorted).
func TestYAMLMappingsKeepTheirOrder(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"dbt_project.yml": "name: probe\nvars:\n  m: {zeta: 1, alpha: {y: 2, b: 3}, mid: 3}\n  l: [{q: 1, c: 2}]\n",
		"models/a.sql":    "select 1 as id",
		"macros/show.sql": `{% macro show(opt) %}
{% set m = var('m') %}
{% do log(m, info=True) %}
{% do log(m.keys() | list ~ ' ' ~ m.values() | list ~ ' ' ~ m.get('alpha'), info=True) %}
{% for k, v in m.items() %}{% do log(k ~ '=' ~ v, info=True) %}{% endfor %}
{% do log(var('l'), info=True) %}
{% do log({'b': 1, 'a': 2}, info=True) %}
{% do print([{'d': 1, 'c': 2}]) %}
{% do log(opt ~ ' ' ~ (opt | list), info=True) %}
{% do log(fromjson('{"b": 1, "a": [2.5, {"d": null, "c": true}]}'), info=True) %}
{% do log(fromyaml('b: 1\na: {y: 2, x: 3}') ~ ' ' ~ fromjson('not json', 'dflt'), info=True) %}
{% endmacro %}`,
	})
	args, err := render.DecodeYAMLMapping("{opt: {k2: 1, k1: 2}}") // as the cli decodes --args
	if err != nil {
		t.Fatal(err)
	}
	want := "{'zeta': 1, 'alpha': {'y': 2, 'b': 3}, 'mid': 3}\n" +
		"['zeta', 'alpha', 'mid'] [1, {'y': 2, 'b': 3}, 3] {'y': 2, 'b': 3}\n" +
		"zeta=1\nalpha={'y': 2, 'b': 3}\nmid=3\n" +
		"[{'q': 1, 'c': 2}]\n{'b': 1, 'a': 2}\n[{'d': 1, 'c': 2}]\n" +
		"{'k2': 1, 'k1': 2} ['k2', 'k1']\n" +
		"{'b': 1, 'a': [2.5, {'d': None, 'c': True}]}\n{'b': 1, 'a': {'y': 2, 'x': 3}} dflt"
	if got := loggedOperation(t, dir, "show")(args); got != want {
		t.Errorf("logged:\n%s\nwant:\n%s", got, want)
	}
}
