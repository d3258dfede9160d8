package render

import (
	"math/big"
	"testing"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// TestStrFormatFields: a replacement field's path past its name reads an
// item or an attribute of the argument, as Python's str.format: '{a[1]}'
// of a list, '{a[x]}' of a dict, '{0[1]}' of a positional tuple, a spec
// after it applying to the item. A list's or dict's field failed with
// reflect's "cannot return value obtained from unexported field or
// method", a positional one with KeyError: '0'. Expectations from
// jinja2 3.1.6.
func TestStrFormatFields(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	ctx := map[string]any{"d": exec.NewDecimal(big.NewInt(150), 2)}
	wantRendered(t, env, ctx, []struct{ src, out string }{
		{"{{ '{a[1]}'.format(a=[1, 'x']) }}", "x"},
		{"{{ '{a[x]}|{a[y][0]}'.format(a={'x': 1, 'y': [none]}) }}", "1|None"},
		{"{{ '{0[1]}-{0[0]}'.format((5, 6)) }} {{ '{1[0]}'.format('a', ['b']) }}", "6-5 b"},
		{"{{ '{a[0]:>5}|{a[1]:03d}'.format(a=[d, 7]) }}", " 1.50|007"},
	})
	wantRenderErrors(t, env, ctx, map[string]string{
		"{{ '{2[0]}'.format([1]) }}": "out of range",
	})
}

// TestStrFormatNumbers: a Decimal with no precision keeps its digits
// under a grouping, width or % spec, and a float with no spec is its
// str(), as Python: '{:%}' of 1.50 was 150.000000%, '{:,}' raised, '{}'
// of 1.0 was 1 and of 0.1 + 0.2 0.3 (review41's LOWs on 139590e).
// Expectations from jinja2 3.1.6 / Python 3.11.
func TestStrFormatNumbers(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	ctx := map[string]any{"d": exec.NewDecimal(big.NewInt(150), 2), "big": exec.NewDecimal(big.NewInt(12345675), 1), "tiny": exec.NewDecimal(big.NewInt(-1), 3)}
	wantRendered(t, env, ctx, []struct{ src, out string }{
		{"{{ '{:%}|{:%}|{:%}'.format(d, big, tiny) }}", "150%|123456750%|-0.1%"},
		{"{{ '{:,}|{:,}|{:,}'.format(d, big, tiny) }}", "1.50|1,234,567.5|-0.001"},
		{"{{ '{:>8}|{:08}|{:f}|{:.1%}|{:,.2f}'.format(d, d, tiny, d, big) }}", "    1.50|00001.50|-0.001|150.0%|1,234,567.50"},
		{"{{ '{}|{}|{}|{:.2f}|{:,}'.format(1.0, 0.1 + 0.2, 1e20, 1.0, 1234.5) }}", "1.0|0.30000000000000004|1e+20|1.00|1,234.5"},
	})
}

// TestStrFormatBraces: {{ and }} in a format string are Python's escaped
// braces: '{{}}'.format() is {} (it was an IndexError: the second { read
// as a field), a literal {{ or }} was left doubled, and a lone } is
// Python's ValueError. Expectations from jinja2 3.1.6.
func TestStrFormatBraces(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{`{{ '{{}}'.format() }}`, `{}`},
		{`{{ '{{"a": {}}}'.format(1) }}`, `{"a": 1}`},
		{`{{ 'x{{y'.format() }}|{{ 'x}}y'.format() }}|{{ '{{{}}}'.format(5) }}|{{ '{:>4}}}'.format(1) }}`, `x{y|x}y|{5}|   1}`},
	})
	wantRenderErrors(t, env, map[string]any{}, map[string]string{
		`{{ 'a}b'.format() }}`: "Single '}' encountered in format string",
	})
}

// TestStrFormatConversions: a field's !r, !s and !a are Python's repr(),
// str() and ascii() of the value, then its spec as a string's ('{!r}'
// was KeyError: '!r'; '{x!r}' KeyError: 'x!r'); an unknown conversion or
// text after it is Python's ValueError. Expectations from jinja2 3.1.6.
func TestStrFormatConversions(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	ctx := map[string]any{"d": exec.NewDecimal(big.NewInt(150), 2)}
	wantRendered(t, env, ctx, []struct{ src, out string }{
		{`{{ '{!r}|{!s}|{!r:>6}'.format('a', none, 'b') }}`, `'a'|None|   'b'`},
		{`{{ '{x!r}|{y!r}|{z!a}'.format(x=d, y=[1, 'b'], z='é') }}`, `Decimal('1.50')|[1, 'b']|'\xe9'`},
	})
	wantRenderErrors(t, env, ctx, map[string]string{
		`{{ '{!x}'.format(1) }}`:  "Unknown conversion specifier x",
		`{{ '{!rr}'.format(1) }}`: "expected ':' after conversion specifier",
	})
}

// TestStrFormatBool: a bool with a spec is formatted as the int it is
// (bool.__format__ is int's): '{:d}' of True was True. Expectations from
// jinja2 3.1.6.
func TestStrFormatBool(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{`{{ '{}|{:d}|{:>3}|{!r}|{:.1f}'.format(true, true, false, true, true) }}`, `True|1|  0|True|1.0`},
	})
}

// TestStrPartitionEmptySeparator: partition and rpartition of an empty
// separator are Python's ValueError: empty separator (they gave the
// string and two empty strings).
func TestStrPartitionEmptySeparator(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRendered(t, env, map[string]any{}, []struct{ src, out string }{
		{`{{ 'a,b'.partition(',') }} {{ 'a,b,c'.rpartition(',') }}`, `('a', ',', 'b') ('a,b', ',', 'c')`},
	})
	wantRenderErrors(t, env, map[string]any{}, map[string]string{
		`{{ 'x'.partition('') }}`:  "ValueError: empty separator",
		`{{ 'x'.rpartition('') }}`: "ValueError: empty separator",
	})
}
