package render

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
