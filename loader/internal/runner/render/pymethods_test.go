package render

import (
	"strings"
	"testing"
	"time"
)

// TestListMethodsRangeAsJinja2: Python's list methods (index, count, pop,
// insert, remove, clear, sort), str.index/rindex and str.count, range()
// and indent/truncate over what is not a str give what jinja2 3.1.6 gives
// (each expected text written by jinja2 3.1.6, installed here). On main:
// every list method but append/extend/reverse/copy and str.index were
// "not a method docket provides"; "abcab".count("ab") was 1; range(3)
// printed "<<-chan int Value>", had length 0, was false, missed `in` and
// could be looped once; none|indent and none|truncate printed "None".
func TestListMethodsRangeAsJinja2(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{"{% set l = [3, 1] %}{{ l.pop() }}{{ l }}", "1[3]"},
		{"{{ [3, 1].pop(0) }}", "3"},
		{"{% set l = [3, 1, 2] %}{{ l.pop(-2) }}{{ l }}", "1[3, 2]"},
		{"{% set l = [3, 1] %}{% do l.sort() %}{{ l }}", "[1, 3]"},
		{"{% set l = ['b', 'a', 'c'] %}{% do l.sort(reverse=true) %}{{ l }}", "['c', 'b', 'a']"},
		{"{% set l = [3, 1] %}{% do l.insert(0, 9) %}{% do l.insert(-1, 7) %}{% do l.insert(99, 5) %}{{ l }}", "[9, 3, 7, 1, 5]"},
		{"{% set l = [3, 1, 3] %}{% do l.remove(3) %}{{ l }}", "[1, 3]"},
		{"{% set l = [1] %}{% do l.clear() %}{{ l }}", "[]"},
		{"{{ [1, 2, 1].index(1, 1) }}{{ ['a', 'b'].index('b') }}", "21"},
		{"{{ [1, 2, 2].count(2) }}", "2"},
		{"{{ 'abcab'.count('ab') }}{{ 'abcab'.index('c') }}{{ 'abcab'.rindex('ab') }}{{ 'abcab'.find('z') }}", "223-1"},
		{"{{ range(3) }} {{ range(1, 10, 2) }} {{ range(5, 2) }} {{ [range(2)] }}", "range(0, 3) range(1, 10, 2) range(5, 2) [range(0, 2)]"},
		{"{{ range(3)|length }}{{ 2 in range(3) }}{{ range(3)[1] }}{% if range(0) %}y{% else %}n{% endif %}{% if range(3) %}y{% endif %}", "3True1ny"},
		{"{% set r = range(3) %}{% for i in r %}{{ i }}{% endfor %}{% for i in r %}{{ i }}{% endfor %}", "012012"},
		{"{{ range(3)|join('-') }}{% for i in range(10, 0, -3) %},{{ i }}{% endfor %}", "0-1-2,10,7,4,1"},
		{"{{ [1, 2]|truncate(5) }}", "[1, 2]"},
	})
	// dictsort's pairs print their items as Python's repr (they printed
	// str: ('a', 'it's'), ('d', 2024-01-02)), as jinja2 3.1.6 prints them
	wantRendered(t, env, map[string]any{"d": Date{T: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)}}, []struct{ src, out string }{
		{"{{ {'a': \"it's\", 'b': none, 'c': [1, 'x'], 'd': d}|dictsort }}", "[('a', \"it's\"), ('b', None), ('c', [1, 'x']), ('d', datetime.date(2024, 1, 2))]"},
	})
	for _, tc := range []struct{ src, err string }{
		{"{{ [1].index(5) }}", "ValueError: 5 is not in list"},
		{"{{ ['a'].index('b') }}", "ValueError: 'b' is not in list"},
		{"{% set l = [3, 1] %}{% do l.remove(4) %}", "ValueError: list.remove(x): x not in list"},
		{"{{ [].pop() }}", "IndexError: pop from empty list"},
		{"{{ [1].pop(5) }}", "IndexError: pop index out of range"},
		{"{% set l = [3, 'a'] %}{% do l.sort() %}", "TypeError: '<' not supported between instances of 'str' and 'int'"},
		{"{{ 'ab'.index('z') }}", "ValueError: substring not found"},
		{"{{ [1].foo() }}", "'list object' has no attribute 'foo'"},
		{"{{ 'ab'.foo() }}", "'str object' has no attribute 'foo'"},
		{"{{ none|indent }}", "TypeError as in Python (unsupported operand type(s) for +=: 'NoneType' and 'str')"},
		{"{{ 5|indent }}", "TypeError as in Python (unsupported operand type(s) for +=: 'int' and 'str')"},
		{"{{ [1]|indent }}", "AttributeError as in Python ('list' object has no attribute 'splitlines')"},
		{"{{ none|truncate(3) }}", "TypeError as in Python (object of type 'NoneType' has no len())"},
		{"{{ 5|truncate(3) }}", "TypeError as in Python (object of type 'int' has no len())"},
	} {
		tpl, err := env.Parse("m.sql", tc.src)
		if err != nil {
			t.Fatal(err)
		}
		out, err := tpl.Render(nil)
		if err == nil || !strings.HasSuffix(err.Error(), tc.err) {
			t.Errorf("%q: rendered %q, %v; want an error ending %q", tc.src, out, err, tc.err)
		}
	}
	// the error keeps its whole text through a macro's frame
	menv, _ := NewEnv(map[string]string{"macros/a.sql": "{% macro m() %}{% set l = [1] %}{% do l.remove(4) %}{% endmacro %}"})
	tpl, err := menv.Parse("m.sql", "{{ m() }}")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tpl.Render(nil); err == nil || !strings.HasSuffix(err.Error(), "in macro m (macros/a.sql:1): ValueError: list.remove(x): x not in list") {
		t.Errorf("in a macro: %v", err)
	}
}
