package compiler

import (
	"reflect"
	"testing"
)

// TestPyLiteral: the Python literals dbt's Python parser accepts in
// dbt.config(...), read as YAML would give them; anything else an error.
func TestPyLiteral(t *testing.T) {
	for _, c := range []struct {
		in   string
		want any
	}{
		{`"table"`, "table"},
		{`'it\'s'`, "it's"},
		{`"a\"b\n"`, "a\"b\n"},
		{`r"^DDD-\d+"`, `^DDD-\d+`},
		// as Python: an unknown escape stays, the known ones beside it decode;
		// \xhh and \ooo are code points, not bytes
		{`'^\s+\n'`, "^\\s+\n"},
		{`'caf\xe9 \351'`, "café é"},
		{`"""one
two"""`, "one\ntwo"},
		{`"ab" 'cd'`, "abcd"},
		{`-3`, -3},
		{`2.5`, 2.5},
		{`1_000`, 1000},
		{`True`, true},
		{`None`, nil},
		{`['a', "b",]`, []any{"a", "b"}},
		{`("x", 1)`, []any{"x", 1}},
		{`{'owner': 'ana', "n": [1, {"k": False}]}`, map[string]any{"owner": "ana", "n": []any{1, map[string]any{"k": false}}}},
	} {
		got, err := pyLiteral(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("pyLiteral(%s) = %#v, %v; want %#v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{`os.environ['X']`, `f"{x}"`, `"a" + "b"`, `[1, x]`, `{'a': 1`, `'open`, `table`} {
		if v, err := pyLiteral(in); err == nil {
			t.Errorf("pyLiteral(%s) = %#v, want an error", in, v)
		}
	}
}

// TestPyArgs: the top-level arguments of a call, past commas and
// parentheses inside strings, brackets and comments.
func TestPyArgs(t *testing.T) {
	src := `dbt.config(a="x, y)", b=[1, (2, 3)], # c=1, )
    d={'k': ')'})` + "\nrest"
	var got []string
	for _, a := range pyArgs(src, len("dbt.config(")) {
		got = append(got, src[a[0]:a[1]])
	}
	want := []string{`a="x, y)"`, ` b=[1, (2, 3)]`, " # c=1, )\n    d={'k': ')'}"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pyArgs = %q, want %q", got, want)
	}
}
