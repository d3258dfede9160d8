package render

import "github.com/nikolalohinski/gonja/v2/exec"

// CallsKey is the Render context key of a *Calls that records the
// macros the render calls.
const CallsKey = "__docket_macro_calls"

// Calls records macro calls as dbt's manifest names them
// ("macro.<package>.<name>", the root project under Env.Root): Direct
// from the template itself, Edges from a macro to the macros it called.
type Calls struct {
	Direct map[string]bool
	Edges  map[string]map[string]bool
}

func (c *Calls) add(stack []string, id string) {
	if len(stack) == 0 {
		if c.Direct == nil {
			c.Direct = map[string]bool{}
		}
		c.Direct[id] = true
		return
	}
	from := stack[len(stack)-1]
	if c.Edges == nil {
		c.Edges = map[string]map[string]bool{}
	}
	if c.Edges[from] == nil {
		c.Edges[from] = map[string]bool{}
	}
	c.Edges[from][id] = true
}

// DbtMacro is fn, one of dbt's global-project macros that docket runs in
// Go (is_incremental, run_query), with its call recorded as dbt's manifest
// records it: macro.dbt.<name> in the depends_on.macros of the node or
// macro calling it.
func DbtMacro(name string, fn Func) func(*exec.Evaluator, *exec.VarArgs) *exec.Value {
	id := "macro.dbt." + name
	return func(ev *exec.Evaluator, va *exec.VarArgs) *exec.Value {
		if b := budgetOf(ev); b.calls != nil {
			b.calls.add(b.stack, id)
		}
		v, err := fn(va)
		if err != nil {
			return exec.AsValue(err)
		}
		return exec.AsValue(v)
	}
}
