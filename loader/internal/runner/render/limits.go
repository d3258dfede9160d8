package render

import (
	"errors"
	"fmt"

	"github.com/nikolalohinski/gonja/v2/builtins"
	controlStructures "github.com/nikolalohinski/gonja/v2/builtins/control_structures"
	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/parser"
)

// Limits that keep one template from hanging a build or taking the
// machine: a recursive macro, a loop over range(100000000) or a template
// that writes gigabytes stops with an error at the template instead.
// dbt models and tests loop over at most thousands of items and nest
// macros a few levels deep, so the limits are far from real use.
const (
	MaxMacroDepth  = 64        // nested macro calls in one render (macros/ files and {% macro %} in the template)
	MaxRangeItems  = 100_000   // items of one range(...)
	MaxLoopSteps   = 1_000_000 // range items produced in one render, all loops together (gonja takes ~5-10 µs per iteration)
	MaxOutputBytes = 64 << 20  // rendered text of one template
)

// budgetKey names the per-render budget in the template context.
const budgetKey = "__docket_render_budget"

// budget is the running count of one Render call; macro calls and range
// items of that render happen on one goroutine, one after the other.
type budget struct {
	depth int
	steps int64
	calls *Calls   // when the caller asked (CallsKey)
	stack []string // macros being called, innermost last
}

func budgetOf(ev *exec.Evaluator) *budget {
	if v, ok := ev.Environment.Context.Get(budgetKey); ok {
		if b, ok := v.(*budget); ok {
			return b
		}
	}
	return &budget{} // rendering outside Render (macro parse): unlimited bookkeeping, same limits per call
}

// boundedRange is gonja's range() (its numbers, printed as Python's
// range) with MaxRangeItems per call and MaxLoopSteps per render.
func boundedRange(ev *exec.Evaluator, params *exec.VarArgs) (builtins.PyRange, error) {
	start, stop, step := 0, -1, 1
	a := params.Args
	switch {
	case len(a) == 1 && a[0].IsInteger():
		stop = a[0].Integer()
	case len(a) == 2 && a[0].IsInteger() && a[1].IsInteger():
		start, stop = a[0].Integer(), a[1].Integer()
	case len(a) == 3 && a[0].IsInteger() && a[1].IsInteger() && a[2].IsInteger():
		start, stop, step = a[0].Integer(), a[1].Integer(), a[2].Integer()
	default:
		return nil, exec.ErrInvalidCall(errors.New("expected signature is [start, ]stop[, step] where all arguments are integers"))
	}
	if step == 0 {
		return nil, exec.ErrInvalidCall(errors.New("step cannot be 0"))
	}
	n := 0
	if step > 0 && stop > start {
		n = (stop - start + step - 1) / step
	} else if step < 0 && start > stop {
		n = (start - stop - step - 1) / -step
	}
	if n > MaxRangeItems {
		return nil, exec.ErrInvalidCall(fmt.Errorf("range of %d items is over docket's limit of %d per loop", n, MaxRangeItems))
	}
	b := budgetOf(ev)
	b.steps += int64(n)
	if b.steps > MaxLoopSteps {
		return nil, exec.ErrInvalidCall(fmt.Errorf("loops of this template ran over docket's limit of %d iterations", MaxLoopSteps))
	}
	return builtins.NewPyRange(start, stop, step), nil
}

// errOutputLimit is raised (as a panic, which Render recovers) when a
// template writes more than MaxOutputBytes.
var errOutputLimit = fmt.Errorf("the rendered text is over docket's limit of %d MB (a loop or recursion that writes without end?)", MaxOutputBytes>>20)

// limitWriter collects output up to MaxOutputBytes.
type limitWriter struct{ buf []byte }

func (w *limitWriter) Write(p []byte) (int, error) {
	if len(w.buf)+len(p) > MaxOutputBytes {
		panic(errOutputLimit)
	}
	w.buf = append(w.buf, p...)
	return len(p), nil
}

func (w *limitWriter) WriteString(s string) (int, error) {
	if len(w.buf)+len(s) > MaxOutputBytes {
		panic(errOutputLimit)
	}
	w.buf = append(w.buf, s...)
	return len(s), nil
}

// boundedControlStructures are gonja's control structures with {% macro %}
// replaced: a macro defined in a model, test or macro file counts against
// the same MaxMacroDepth as the macros from macros/ (gonja would recurse
// into it until the Go stack overflows).
func boundedControlStructures() *exec.ControlStructureSet {
	cs := exec.NewControlStructureSet(map[string]parser.ControlStructureParser{})
	cs.Update(builtins.ControlStructures)
	orig, _ := cs.Get("macro")
	cs.Replace("macro", func(p *parser.Parser, args *parser.Parser) (nodes.ControlStructure, error) {
		n, err := orig(p, args)
		if m, ok := n.(*controlStructures.MacroControlStructure); ok && err == nil {
			return &boundedMacro{m}, nil
		}
		return n, err
	})
	return cs
}

// boundedMacro is a {% macro %} whose calls are counted in the render's
// budget.
type boundedMacro struct {
	*controlStructures.MacroControlStructure
}

func (m *boundedMacro) Execute(r *exec.Renderer, tag *nodes.ControlStructureBlock) error {
	fn, err := exec.MacroNodeToFunc(m.Macro, r)
	if err != nil {
		return fmt.Errorf("unable to parse macro '%s': %w", m.Name, err)
	}
	name, line := m.Name, m.Position().Line
	r.Environment.Context.Set(m.Name, func(ev *exec.Evaluator, va *exec.VarArgs) *exec.Value {
		b := budgetOf(ev)
		if b.depth >= MaxMacroDepth {
			return exec.AsValue(fmt.Errorf("calls of macro %s (defined at line %d) nest deeper than docket's limit of %d (does it call itself without end?)", name, line, MaxMacroDepth))
		}
		b.depth++
		defer func() { b.depth-- }()
		return fn(va)
	})
	return nil
}
