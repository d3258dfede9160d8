package compiler

import (
	"regexp"

	"github.com/docket-dev/docket/loader/internal/runner/sqllex"
)

// spacedJinjaRe is "{ {" or "{ %" (a space between the braces, as some SQL
// formatters write them) before a word Jinja would start with there.
var spacedJinjaRe = regexp.MustCompile(`\{\s+(\{|%)-?\s*(ref|source|config|var|env_var|this|target|is_incremental|adapter|run_query|dbt_utils|dbt|if|elif|else|endif|for|endfor|set|endset|do|call|endcall|macro|endmacro|snapshot|endsnapshot|test|endtest)\b`)

// warnSpacedJinja warns of "{ { ref('a') } }" in a node's SQL, outside
// its comments and literals: it is no Jinja (dbt sends it to the database
// as written), so a ref or source in it is not read and the node runs
// without that parent, to fail at run time with "syntax error at or near
// {" or, in a literal-free corner, to mean something else.
func (m *Manifest) warnSpacedJinja(n *Node) {
	raw := n.RawCode
	locs := spacedJinjaRe.FindAllStringSubmatchIndex(raw, -1)
	if len(locs) == 0 {
		return
	}
	starts := map[int]bool{}
	for _, t := range sqllex.Tokens(raw, nil) {
		starts[t.Start] = true
	}
	for _, l := range locs {
		if !starts[l[0]] {
			continue // in a comment or a literal
		}
		text := "{ " + raw[l[2]:l[3]] + " " + raw[l[4]:l[5]]
		fix := "{" + raw[l[2]:l[3]] + " " + raw[l[4]:l[5]]
		switch raw[l[2]:l[3]] {
		case "{":
			what := ""
			if w := raw[l[4]:l[5]]; w == "ref" || w == "source" {
				what = ", so this " + w + " is not read"
			}
			m.warn(n.Path, OffsetPos(raw, l[0]), "%q is not Jinja (a space between the braces): dbt and docket send it to the database as written%s; write %s", text, what, fix)
		default:
			m.warn(n.Path, OffsetPos(raw, l[0]), "%q is not Jinja (a space between the brace and %%): dbt and docket send it to the database as written; write %s", text, fix)
		}
	}
}
