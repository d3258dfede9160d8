package builtins

import (
	"fmt"
	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/utils"
	"github.com/pkg/errors"
)

var GlobalFunctions = exec.NewContext(map[string]any{
	"cycler":    cyclerFunction,
	"dict":      dictFunction,
	"joiner":    joinerFunction,
	"lipsum":    lipSumFunction,
	"namespace": namespaceFunction,
	"range":     rangeFunction,
	"_":         gettextFunction,
	"gettext":   gettextFunction,
	"ngettext":  ngettextFunction,
})

func rangeFunction(_ *exec.Evaluator, params *exec.VarArgs) (PyRange, error) {
	var (
		start = 0
		stop  = -1
		step  = 1
	)
	switch n := len(params.Args); n > 0 {
	case n == 1 && params.Args[0].IsInteger():
		stop = params.Args[0].Integer()
	case n == 2 && params.Args[0].IsInteger() && params.Args[1].IsInteger():
		start = params.Args[0].Integer()
		stop = params.Args[1].Integer()
	case n == 3 && params.Args[0].IsInteger() && params.Args[1].IsInteger() && params.Args[2].IsInteger():
		start = params.Args[0].Integer()
		stop = params.Args[1].Integer()
		step = params.Args[2].Integer()
	default:
		return nil, exec.ErrInvalidCall(errors.New("expected signature is [start, ]stop[, step] where all arguments are integers"))
	}

	if step == 0 {
		return nil, exec.ErrInvalidCall(errors.New("step cannot be 0"))
	}
	return NewPyRange(start, stop, step), nil
}

// NewPyRange is range(start, stop, step) (step not 0).
func NewPyRange(start, stop, step int) PyRange {
	var nums []int
	if step > 0 {
		for i := start; i < stop; i += step {
			nums = append(nums, i)
		}
	} else {
		for i := start; i > stop; i += step {
			nums = append(nums, i)
		}
	}
	// start, stop and step ride past the numbers, in the array's spare
	// capacity (PyRange.String)
	full := append(append(make([]int, 0, len(nums)+3), nums...), start, stop, step)
	return PyRange(full[:len(nums)])
}

// PyRange is range()'s value (docket): its numbers, so that length,
// `in`, truth, indexing and a second loop over it are Python's (upstream's
// channel had length 0, was false, missed `in`, could be read once and
// leaked its goroutine when a loop broke early), printed as Python prints
// a range: range(0, 3), range(1, 10, 2). The arguments it was called with
// are kept past its length, in the spare capacity rangeFunction gives it.
type PyRange []int

// PySlice is Python's range slice: range(a, b, s)[i:j:k] is
// range(a+i*s, a+j*s, s*k), i and j the slice's bounds for its length
// (it printed the unsliced range's arguments: range(5)[1:] was
// "range(0, 5)").
func (r PyRange) PySlice(start, stop, step int) any {
	a, _, s := r.args()
	return NewPyRange(a+start*s, a+stop*s, s*step)
}

// PyClassName is its type's name in Python's messages: "Object of type
// range is not JSON serializable" (tojson wrote [0, 1, 2]).
func (r PyRange) PyClassName() string { return "range" }

// args are the start, stop and step range() was called with (or, for a
// range copied without them, its numbers' own).
func (r PyRange) args() (start, stop, step int) {
	if cap(r) >= len(r)+3 {
		full := r[:len(r)+3]
		return full[len(r)], full[len(r)+1], full[len(r)+2]
	}
	switch len(r) {
	case 0:
		return 0, 0, 1
	case 1:
		return r[0], r[0] + 1, 1
	}
	return r[0], r[len(r)-1] + (r[1] - r[0]), r[1] - r[0]
}

func (r PyRange) String() string {
	if cap(r) < len(r)+3 { // copied: only the numbers are known
		return fmt.Sprint([]int(r))
	}
	start, stop, step := r.args()
	if step == 1 {
		return fmt.Sprintf("range(%d, %d)", start, stop)
	}
	return fmt.Sprintf("range(%d, %d, %d)", start, stop, step)
}

// dictFunction is Jinja2's dict global, Python's dict(): docket: a
// positional mapping's pairs or a list of key/value pairs first, then the
// keyword arguments in the call's order, a later key replacing an earlier
// one. Upstream
// read keywords only: dict({'a': 1}) was {} without a word.
func dictFunction(_ *exec.Evaluator, params *exec.VarArgs) *exec.Value {
	dict := exec.NewDict()
	set := func(key, value *exec.Value) {
		for _, p := range dict.Pairs {
			if p.Key.EqualValueTo(key) {
				p.Value = value
				return
			}
		}
		dict.Pairs = append(dict.Pairs, &exec.Pair{Key: key, Value: value})
	}
	switch len(params.Args) {
	case 0:
	case 1:
		arg := params.Args[0]
		switch {
		case arg.IsDict():
			if d, ok := arg.Interface().(*exec.Dict); ok {
				for _, p := range d.Pairs {
					set(p.Key, p.Value)
				}
				break
			}
			for _, k := range arg.Keys() {
				v, _ := arg.GetItem(k.Interface())
				set(k, v)
			}
		case arg.IsList():
			for i := range arg.Len() {
				item := arg.Index(i)
				if !item.IsList() || item.Len() != 2 {
					return exec.AsValue(exec.ErrInvalidCall(errors.Errorf("dict(): sequence element #%d is %s, not a key and a value", i, item.String())))
				}
				set(item.Index(0), item.Index(1))
			}
		default:
			return exec.AsValue(exec.ErrInvalidCall(errors.Errorf("dict(): %s is neither a mapping nor a list of key/value pairs", arg.String())))
		}
	default:
		return exec.AsValue(exec.ErrInvalidCall(errors.Errorf("dict expected at most 1 argument, got %d", len(params.Args))))
	}
	for _, k := range params.KwNames() {
		set(exec.AsValue(k), params.KwArgs[k])
	}
	return exec.AsValue(dict)
}

type cycler struct {
	values  []string
	idx     int
	getters map[string]any
}

func (c *cycler) Reset() {
	c.idx = 0
	c.getters["current"] = c.values[c.idx]
}

func (c *cycler) Next() string {
	c.idx++
	value := c.getters["current"].(string)
	if c.idx >= len(c.values) {
		c.idx = 0
	}
	c.getters["current"] = c.values[c.idx]
	return value
}

func cyclerFunction(_ *exec.Evaluator, params *exec.VarArgs) *exec.Value {
	c := &cycler{}
	for _, arg := range params.Args {
		c.values = append(c.values, arg.String())
	}
	c.getters = map[string]any{
		"next":  c.Next,
		"reset": c.Reset,
	}
	c.Reset()
	return exec.AsValue(c.getters)
}

type joiner struct {
	sep   string
	first bool
}

func (j *joiner) String() string {
	if !j.first {
		j.first = true
		return ""
	}
	return j.sep
}

func joinerFunction(_ *exec.Evaluator, params *exec.VarArgs) *exec.Value {
	var (
		sep string
	)
	if err := params.Take(
		exec.KeywordArgument("sep", exec.AsValue(","), exec.StringArgument(&sep)),
	); err != nil {
		return exec.AsValue(exec.ErrInvalidCall(err))
	}
	j := &joiner{sep: sep}
	return exec.AsValue(j.String)
}

func namespaceFunction(_ *exec.Evaluator, params *exec.VarArgs) map[string]any {
	ns := map[string]any{}
	for key, value := range params.KwArgs {
		ns[key] = value
	}
	return ns
}

func lipSumFunction(_ *exec.Evaluator, params *exec.VarArgs) *exec.Value {
	var (
		n    int
		html bool
		min  int
		max  int
	)
	if err := params.Take(
		exec.KeywordArgument("n", exec.AsValue(5), exec.IntArgument(&n)),
		exec.KeywordArgument("html", exec.AsValue(true), exec.BoolArgument(&html)),
		exec.KeywordArgument("min", exec.AsValue(20), exec.IntArgument(&min)),
		exec.KeywordArgument("max", exec.AsValue(100), exec.IntArgument(&max)),
	); err != nil {
		return exec.AsValue(exec.ErrInvalidCall(err))
	}
	return exec.AsSafeValue(utils.Lipsum(n, html, min, max))
}

func gettextFunction(_ *exec.Evaluator, params *exec.VarArgs) *exec.Value {
	if len(params.Args) < 1 {
		return exec.AsValue("")
	}
	// Default: identity (no translation backend registered). Users can override
	// by setting environment.Context["__gonja_trans_hook__"] = func(s string) string { ... }
	return exec.AsValue(params.Args[0].String())
}

func ngettextFunction(_ *exec.Evaluator, params *exec.VarArgs) *exec.Value {
	// signature: ngettext(singular, plural, n)
	if len(params.Args) < 3 {
		return exec.AsValue("")
	}
	singular := params.Args[0].String()
	plural := params.Args[1].String()
	n := params.Args[2].Integer()
	if n == 1 {
		return exec.AsValue(singular)
	}
	return exec.AsValue(plural)
}
