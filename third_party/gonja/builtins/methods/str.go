package methods

import (
	"errors"
	"fmt"

	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nikolalohinski/gonja/v2/builtins/methods/pyerrors"
	"github.com/nikolalohinski/gonja/v2/builtins/methods/pystring"
	"github.com/nikolalohinski/gonja/v2/exec"
	"golang.org/x/exp/utf8string"
)

var strMethods = exec.NewMethodSet[string](map[string]exec.Method[string]{
	"capitalize": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).Capitalize(), nil
	},
	"capwords": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).CapWords(), nil
	},
	"casefold": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).Casefold(), nil
	},
	"center": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			width    int
			fillchar string
		)
		if err := arguments.Take(
			exec.PositionalArgument("width", nil, exec.IntArgument(&width)),
			exec.PositionalArgument("fillchar", exec.AsValue(" "), exec.StringArgument(&fillchar)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).Center(width, utf8string.NewString(fillchar).At(0)), nil
	},
	"count": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			sub   string
			start int
			end   int
		)
		if err := arguments.Take(
			exec.PositionalArgument("sub", nil, exec.StringArgument(&sub)),
			exec.PositionalArgument("start", exec.AsValue(0), exec.IntArgument(&start)),
			exec.PositionalArgument("end", exec.AsValue(len(self)), exec.IntArgument(&end)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).Count(pystring.New(sub), &start, &end), nil // docket: sub, not self
	},
	"encode": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			encoding  string
			errorsArg string
		)
		if err := arguments.Take(
			exec.KeywordArgument("encoding", exec.AsValue("utf-8"), exec.StringEnumArgument(&encoding, []string{
				// https://docs.python.org/3/library/codecs.html#standard-encodings
				// Supporting just the most common on that are easy to implement in Go
				"utf-8", "utf_8", "U8", "UTF", "utf8", "cp65001", // UTF-8 and its aliases
				"latin_1", "iso-8859-1", "iso8859-1", "8859", "cp819", "latin", "latin1", "L1", // ISO-8859-1 and its aliases
			})),
			exec.KeywordArgument("errors", exec.AsValue("strict"), exec.StringEnumArgument(&errorsArg, []string{
				// See https://docs.python.org/3/library/codecs.html#error-handlers
				"strict",
				"ignore", // only makes sense for ISO-8859-1
				// not implementing the arguments below as it is too much work
				// and it is very likely no one is using them in Jinja templates
				// "replace",
				// "xmlcharrefreplace",
				// "backslashreplace",
			})),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}

		res, err := pystring.PyString(self).Encode(encoding, errorsArg)
		if err != nil {
			if errors.Is(err, pyerrors.ErrArguments) {
				return nil, exec.ErrInvalidCall(err)
			}
			return nil, err
		}

		return res, nil
	},
	"endswith": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			suffix string
			start  int
			end    int
		)
		if err := arguments.Take(
			exec.PositionalArgument("suffix", nil, exec.StringArgument(&suffix)),
			exec.PositionalArgument("start", exec.AsValue(0), exec.IntArgument(&start)),
			exec.PositionalArgument("end", exec.AsValue(len(self)), exec.IntArgument(&end)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).EndsWith(pystring.New(suffix), &start, &end), nil
	},
	"expandtabs": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			substr  string
			tabsize int
			end     int
		)
		if err := arguments.Take(
			exec.PositionalArgument("substr", nil, exec.StringArgument(&substr)),
			exec.PositionalArgument("tabsize", exec.AsValue(0), exec.IntArgument(&tabsize)),
			exec.PositionalArgument("end", exec.AsValue(len(self)), exec.IntArgument(&end)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).ExpandTabs(pystring.New(substr), &tabsize), nil
	},
	"find": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		return strFind(self, arguments, false)
	},
	// docket: index and rindex are find and rfind that raise as Python
	"index": func(self string, v *exec.Value, arguments *exec.VarArgs) (any, error) {
		return strIndex(self, v, arguments, false)
	},
	"rindex": func(self string, v *exec.Value, arguments *exec.VarArgs) (any, error) {
		return strIndex(self, v, arguments, true)
	},
	"format": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		args := make([]any, 0, len(arguments.Args))
		for _, arg := range arguments.Args {
			args = append(args, formatArg(arg))
		}
		kwargs := make(map[string]any)
		for key, value := range arguments.KwArgs {
			kwargs[key] = formatArg(value)
		}
		return pystring.PyString(self).Format(args, kwargs)
	},
	"format_map": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		// docket: Python's format_map(mapping) reads the mapping's keys
		// ('{x}'.format_map({'x': 1}) was KeyError: 'x')
		if len(arguments.Args) == 1 && len(arguments.KwArgs) == 0 && arguments.Args[0].IsDict() {
			kwargs := make(map[string]any)
			for _, k := range arguments.Args[0].Keys() {
				v, _ := arguments.Args[0].GetItem(k.Interface())
				kwargs[k.String()] = formatArg(v)
			}
			return pystring.PyString(self).FormatMap(nil, kwargs)
		}
		args := make([]any, 0, len(arguments.Args))
		for _, arg := range arguments.Args {
			args = append(args, formatArg(arg))
		}
		kwargs := make(map[string]any)
		for key, value := range arguments.KwArgs {
			kwargs[key] = formatArg(value)
		}
		return pystring.PyString(self).FormatMap(args, kwargs)
	},
	"isalnum": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).IsAlnum(), nil
	},
	"isalpha": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).IsAlpha(), nil
	},
	"isascii": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).IsASCII(), nil
	},
	"isdecimal": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).IsDecimal(), nil
	},
	"isdigit": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).IsDigit(), nil
	},
	"islower": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).IsLower(), nil
	},
	"isnumeric": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).IsNumeric(), nil
	},
	"isprintable": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).IsPrintable(), nil
	},
	"isspace": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).IsSpace(), nil
	},
	"istitle": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).IsTitle(), nil
	},
	"isupper": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).IsUpper(), nil
	},
	"join": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			strs []string
		)
		if err := arguments.Take(
			exec.PositionalArgument("iterable", nil, exec.StringListArgument(&strs)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.JoinString(self, strs), nil
	},
	"ljust": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			width    int
			fillchar string
		)
		if err := arguments.Take(
			exec.PositionalArgument("width", nil, exec.IntArgument(&width)),
			exec.PositionalArgument("fillchar", exec.AsValue(" "), exec.StringArgument(&fillchar)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).LJust(width, utf8string.NewString(fillchar).At(0)), nil
	},
	"lower": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).Lower(), nil
	},
	"lstrip": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var chars *string
		if err := arguments.Take(
			exec.PositionalArgument("chars", exec.AsValue(nil), noneOrString(&chars)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pyStrip(self, chars, "left"), nil
	},
	"partition": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			sep string
		)
		if err := arguments.Take(
			exec.PositionalArgument("sep", nil, exec.StringArgument(&sep)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		if sep == "" { // docket: Python's ValueError (it gave (self, '', ''))
			return nil, errors.New("ValueError: empty separator")
		}
		p1, p2, p3 := pystring.PyString(self).Partition(sep)
		// docket: a tuple, as Python's (it printed as a list)
		return exec.Tuple{exec.AsValue(p1.String()), exec.AsValue(p2.String()), exec.AsValue(p3.String())}, nil
	},
	"removeprefix": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			prefix string
		)
		if err := arguments.Take(
			exec.PositionalArgument("prefix", nil, exec.StringArgument(&prefix)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).RemovePrefix(prefix), nil
	},
	"removesuffix": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			suffix string
		)
		if err := arguments.Take(
			exec.PositionalArgument("suffix", nil, exec.StringArgument(&suffix)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).RemoveSuffix(suffix), nil
	},
	"replace": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			old   string
			new   string
			count int
		)
		if err := arguments.Take(
			exec.PositionalArgument("old", nil, exec.StringArgument(&old)),
			exec.PositionalArgument("new", nil, exec.StringArgument(&new)),
			exec.PositionalArgument("count", exec.AsValue(-1), exec.IntArgument(&count)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		// Python's count -1 (any negative) is every occurrence, as Go's n < 0.
		return strings.Replace(self, old, new, count), nil
	},
	"rfind": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		return strFind(self, arguments, true)
	},
	"rjust": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			width    int
			fillchar string
		)
		if err := arguments.Take(
			exec.PositionalArgument("width", nil, exec.IntArgument(&width)),
			exec.PositionalArgument("fillchar", exec.AsValue(" "), exec.StringArgument(&fillchar)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).RJust(width, utf8string.NewString(fillchar).At(0)), nil
	},
	"rpartition": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			sep string
		)
		if err := arguments.Take(
			exec.PositionalArgument("sep", nil, exec.StringArgument(&sep)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		if sep == "" { // docket: Python's ValueError (it gave (self, '', ''))
			return nil, errors.New("ValueError: empty separator")
		}
		p1, p2, p3 := pystring.PyString(self).RPartition(sep)
		// docket: a tuple, as Python's (it printed as a list)
		return exec.Tuple{exec.AsValue(p1.String()), exec.AsValue(p2.String()), exec.AsValue(p3.String())}, nil
	},
	"rsplit": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			sep      *string
			maxsplit int
		)
		if err := arguments.Take(
			exec.PositionalArgument("sep", exec.AsValue(nil), noneOrString(&sep)),
			exec.PositionalArgument("maxsplit", exec.AsValue(-1), exec.IntArgument(&maxsplit)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pySplit(self, sep, maxsplit, true)
	},
	"rstrip": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var chars *string
		if err := arguments.Take(
			exec.PositionalArgument("chars", exec.AsValue(nil), noneOrString(&chars)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pyStrip(self, chars, "right"), nil
	},
	"split": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			sep      *string
			maxsplit int
		)
		if err := arguments.Take(
			exec.PositionalArgument("sep", exec.AsValue(nil), noneOrString(&sep)),
			exec.PositionalArgument("maxsplit", exec.AsValue(-1), exec.IntArgument(&maxsplit)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pySplit(self, sep, maxsplit, false)
	},
	"splitlines": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			keepends bool
		)
		if err := arguments.Take(
			exec.PositionalArgument("keepends", exec.AsValue(false), exec.BoolArgument(&keepends)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).SplitLines(keepends), nil
	},
	"startswith": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			prefix   string
			prefixes []string
			start    int
			end      int
		)
		if err := arguments.Take(
			exec.PositionalArgument("prefix", nil, exec.OrArgument(
				exec.StringArgument(&prefix),
				exec.StringListArgument(&prefixes),
			)),
			exec.PositionalArgument("start", exec.AsValue(0), exec.IntArgument(&start)),
			exec.PositionalArgument("end", exec.AsValue(len(self)), exec.IntArgument(&end)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}

		// Handle array case.
		if prefixes != nil {
			for _, prefix := range prefixes {
				if pystring.PyString(self).StartsWith(prefix, &start, &end) {
					return true, nil
				}
			}
			return false, nil
		}

		// Handle single prefix case.
		return pystring.PyString(self).StartsWith(prefix, &start, &end), nil
	},
	"strip": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var chars *string
		if err := arguments.Take(
			exec.PositionalArgument("chars", exec.AsValue(nil), noneOrString(&chars)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pyStrip(self, chars, "both"), nil
	},
	"swapcase": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).SwapCase(), nil
	},
	"title": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).Title(), nil
	},
	"upper": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		if err := arguments.Take(); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).Upper(), nil
	},
	"zfill": func(self string, _ *exec.Value, arguments *exec.VarArgs) (any, error) {
		var (
			width int
		)
		if err := arguments.Take(
			exec.PositionalArgument("width", nil, exec.IntArgument(&width)),
		); err != nil {
			return nil, exec.ErrInvalidCall(err)
		}
		return pystring.PyString(self).ZFill(width), nil
	},
})

// strFind is str.find (or rfind): the lowest (highest) index of sub in
// self[start:end], -1 when it is not there.
func strFind(self string, arguments *exec.VarArgs, right bool) (any, error) {
	var (
		sub   string
		start int
		end   int
	)
	if err := arguments.Take(
		exec.PositionalArgument("sub", nil, exec.StringArgument(&sub)),
		exec.PositionalArgument("start", exec.AsValue(0), exec.IntArgument(&start)),
		exec.PositionalArgument("end", exec.AsValue(len(self)), exec.IntArgument(&end)),
	); err != nil {
		return nil, exec.ErrInvalidCall(err)
	}
	if right {
		return pystring.PyString(self).RFind(sub, &start, &end), nil
	}
	return pystring.PyString(self).Find(pystring.New(sub), &start, &end), nil
}

// strIndex is str.index (or rindex, right): find's result, or Python's
// ValueError when the substring is not there.
func strIndex(self string, _ *exec.Value, arguments *exec.VarArgs, right bool) (any, error) {
	i, err := strFind(self, arguments, right)
	if err != nil {
		return nil, err
	}
	if i.(int) < 0 {
		return nil, fmt.Errorf("ValueError: substring not found")
	}
	return i, nil
}

// noneOrString reads a str argument whose Python default is None (split's
// sep, strip's chars): nil for None.
func noneOrString(output **string) func(*exec.Value) error {
	return func(v *exec.Value) error {
		if v == nil || v.IsNil() {
			*output = nil
			return nil
		}
		if !v.IsString() {
			return fmt.Errorf("TypeError: must be str or None, not %s", v.String())
		}
		s := v.String()
		*output = &s
		return nil
	}
}

// pySplit is Python's str.split (rsplit when right): sep None splits on
// runs of whitespace and drops empty strings at the ends; maxsplit < 0 is
// no limit. Written here because pystring's Split ignored maxsplit
// ('a b c'.split(' ', 1) gave ['a b c']) and has no None separator.
func pySplit(s string, sep *string, maxsplit int, right bool) ([]string, error) {
	if sep != nil && *sep == "" {
		return nil, errors.New("ValueError: empty separator")
	}
	if sep != nil && maxsplit < 0 {
		return strings.Split(s, *sep), nil
	}
	if sep != nil && !right {
		return strings.SplitN(s, *sep, maxsplit+1), nil
	}
	var out []string
	if sep != nil { // rsplit with a limit
		for ; maxsplit > 0; maxsplit-- {
			i := strings.LastIndex(s, *sep)
			if i < 0 {
				break
			}
			out = append(out, s[i+len(*sep):])
			s = s[:i]
		}
		return reversed(append(out, s)), nil
	}
	out = []string{}
	for {
		if right {
			s = strings.TrimRightFunc(s, unicode.IsSpace)
		} else {
			s = strings.TrimLeftFunc(s, unicode.IsSpace)
		}
		if s == "" {
			break
		}
		var i int
		if right {
			i = strings.LastIndexFunc(s, unicode.IsSpace)
		} else {
			i = strings.IndexFunc(s, unicode.IsSpace)
		}
		if maxsplit == 0 || i < 0 {
			out = append(out, s)
			break
		}
		if right {
			_, w := utf8.DecodeRuneInString(s[i:])
			out = append(out, s[i+w:])
			s = s[:i]
		} else {
			out = append(out, s[:i])
			s = s[i:]
		}
		maxsplit--
	}
	if right {
		return reversed(out), nil
	}
	return out, nil
}

func reversed(out []string) []string {
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// pyStrip is Python's str.strip / lstrip / rstrip: chars None strips
// whitespace, otherwise any of chars' characters.
func pyStrip(s string, chars *string, side string) string {
	trim := unicode.IsSpace
	if chars != nil {
		set := *chars
		trim = func(r rune) bool { return strings.ContainsRune(set, r) }
	}
	switch side {
	case "left":
		return strings.TrimLeftFunc(s, trim)
	case "right":
		return strings.TrimRightFunc(s, trim)
	}
	return strings.TrimFunc(s, trim)
}
