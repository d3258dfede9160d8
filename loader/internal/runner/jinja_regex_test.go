package runner

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestRegexMatchObjects: modules.re.match and .search give Python's Match
// object as dbt's modules.re does: group() / group(n) / group('name'),
// groups(), start(), end(), span(); None when nothing matches, and a
// match of nothing is still a match (truthy). They gave the matched text,
// so a real project's `match.group(1)` (generate_date_series' step
// check) stopped the whole project ("group() is not a method docket
// provides"), and `{% if re.match('a*', 'b') %}` was false. The pattern
// is written as such projects write it, '\s' in a Jinja string (a syntax
// error before the gonja fork decoded escapes as Jinja2 does).
func TestRegexMatchObjects(t *testing.T) {
	dir := writeProbe(t, map[string]string{
		"macros/step.sql": "{% macro step(s) %}{%- set m = modules.re.match('^\\s*([0-9]+)\\s+(day|week|month)\\s*$', s | lower) -%}" +
			"{%- if not m or (m.group(1) | int) < 1 -%}{{ exceptions.raise_compiler_error('bad step ' ~ s) }}{%- endif -%}" +
			"{{ (m.group(1) | int) ~ ' ' ~ m.group(2) }}{% endmacro %}",
		"models/m/a.sql": "{% set s = modules.re.search('(?P<k>[a-z]+)=(?P<v>[0-9]+)', 'x: id=42;') %}" +
			"select '{{ step(' 2 Month') }}' as step, '{{ s.group(0) }}|{{ s.group('v') }}|{{ s.groups() | join(',') }}|{{ s.start() }}-{{ s.end(1) }}|{{ s.span()[1] }}' as found, " +
			"'{{ 'yes' if modules.re.match('a*', 'b') else 'no' }}|{{ modules.re.match('x', 'ax') is none }}|{{ s }}' as edge",
	})
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	db, rr := buildProbe(t, m)
	if r := resultsByName(rr)["a"]; r.Status != executor.StatusSuccess {
		t.Fatalf("a: %s %s", r.Status, r.Message)
	}
	got := strings.Join(queryStrings(t, db.SQL(), "select step || ' / ' || found || ' / ' || edge from m.a"), "")
	if want := "2 month / id=42|42|id,42|3-5|8 / yes|True|id=42"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
