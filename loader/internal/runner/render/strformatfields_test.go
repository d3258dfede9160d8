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
