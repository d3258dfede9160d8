package compiler

import (
	"regexp"
	"strings"
)

// Finish replaces ref markers with relations and inlines ephemeral models
// as CTEs named __dbt__cte__<name>.
func (m *Manifest) Finish(n *Node, sql string, stack map[string]bool) string {
	var ctes []string
	seen := map[string]bool{}
	out := refMarker.ReplaceAllStringFunc(sql, func(s string) string {
		name := refMarker.FindStringSubmatch(s)[1]
		t := m.byName[name]
		if t == nil {
			return name
		}
		if r := m.deferred[t.UniqueID]; r != "" {
			return r
		}
		if t.ResourceType == Model && t.Config.Materialized == "ephemeral" {
			cte := "__dbt__cte__" + t.Name
			if !seen[name] && !stack[name] {
				seen[name] = true
				stack[name] = true
				src := t.CompiledCode
				if t.rendered != "" {
					src = t.rendered // markers kept: a deferred ref inside resolves too
				}
				body := m.Finish(t, src, stack)
				delete(stack, name)
				ctes = append(ctes, cte+" as (\n"+trimSQL(body)+"\n)")
			}
			return cte
		}
		return t.Relation
	})
	if len(ctes) == 0 {
		return out
	}
	return InjectCTEs(out, ctes)
}

var withRe = regexp.MustCompile(`(?is)^(\s*(?:--[^\n]*\n\s*|/\*.*?\*/\s*)*)with\s+(recursive\s+)?`)

func InjectCTEs(sql string, ctes []string) string {
	joined := strings.Join(ctes, ", ")
	if loc := withRe.FindStringSubmatchIndex(sql); loc != nil {
		head := sql[:loc[1]]
		return head + joined + ",\n" + sql[loc[1]:]
	}
	lead := len(sql) - len(strings.TrimLeft(sql, " \t\r\n"))
	return sql[:lead] + "with " + joined + "\n" + sql[lead:]
}

// trimSQL drops surrounding blanks and trailing semicolons.
func trimSQL(s string) string {
	s = strings.TrimSpace(s)
	for strings.HasSuffix(s, ";") {
		s = strings.TrimSpace(strings.TrimSuffix(s, ";"))
	}
	return s
}
