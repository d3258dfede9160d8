package compiler

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner/render"
)

// UndefinedMacroError is `run-operation NAME` naming a macro no package
// defines (dbt's UndefinedMacroError: a usage mistake, exit 2).
type UndefinedMacroError struct{ Name string }

func (e *UndefinedMacroError) Error() string {
	return fmt.Sprintf("could not find a macro with the name '%s' in any package", e.Name)
}

// MacroCall is the macro `run-operation` calls: its node (resource type
// operation, unique_id macro.<package>.<name> as dbt's run_results.json
// names it) and how a template calls it.
type MacroCall struct {
	Node  *Node
	Macro string // as run-operation was given it
	call  string // the callee as a template writes it: name or pkg.name
}

// FindOperation resolves `run-operation MACRO` as dbt's
// find_macro_by_name: "pkg.name" is that package's macro (the root
// project's name for the root); a bare name is the root project's, else
// an installed package's (by package name), else dbt's built-in.
func (m *Manifest) FindOperation(macro string) (*MacroCall, error) {
	pkg, name, qualified := strings.Cut(macro, ".")
	if !qualified {
		pkg, name = "", macro
	}
	if !identRe.MatchString(name) {
		return nil, &UndefinedMacroError{Name: macro}
	}
	root := m.env.Macros()
	var found, call string
	switch {
	case qualified && pkg == m.Name:
		if _, ok := root[name]; ok {
			found, call = m.Name, name
		}
	case qualified:
		if m.env.Has(pkg, name) {
			found, call = pkg, pkg+"."+name
		}
	default:
		if _, ok := root[name]; ok {
			found, call = m.Name, name
			break
		}
		pkgs := m.env.PackageMacros()
		names := SortedKeys(pkgs)
		sort.SliceStable(names, func(i, j int) bool { return names[j] == "dbt" && names[i] != "dbt" }) // dbt's built-ins last
		for _, p := range names {
			if _, ok := pkgs[p][name]; ok {
				found, call = p, p+"."+name
				break
			}
		}
	}
	if found == "" {
		return nil, &UndefinedMacroError{Name: macro}
	}
	file, _ := m.env.MacroFile(m.macroPkg(found), name)
	if found != m.Name && found != "dbt" {
		file = m.env.PackageMacros()[found][name]
	}
	id := "macro." + found + "." + name
	n := &Node{Name: name, UniqueID: id, ResourceType: Operation, PackageName: found, Path: file, Alias: name,
		FQN: []string{found, name}, Database: m.Database(), Schema: m.Target().Schema, Config: Config{Enabled: true, Materialized: "view"}}
	return &MacroCall{Node: n, Macro: macro, call: call}, nil
}

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// opArgs is the variable a run-operation's call reads its arguments from.
const opArgs = "__docket_operation_args"

// RunOperation calls op's macro with args as its keyword arguments (dbt's
// `--args` mapping, passed as dbt's macro(**args)), rendered with the
// run-time context (target, var, env_var, log, run_query, statement,
// adapter ...) and q as the connection run_query and statement use. As in
// dbt, what the macro renders and what it returns are discarded: only the
// SQL it runs through run_query, statement or do counts. A key the macro
// does not declare is its error (unexpected keyword argument) unless the
// macro reads kwargs, whatever the key's spelling.
func (m *Manifest) RunOperation(ctx context.Context, q Querier, op *MacroCall, args map[string]any) error {
	src := fmt.Sprintf("{%% do %s(**%s) %%}", op.call, opArgs)
	kw := make(map[string]any, len(args))
	for k, v := range args {
		kw[k] = render.TemplateValue(v) // a mapping in --args's order
	}
	_, err := m.renderHook(ctx, q, op.Node, src, false, map[string]any{opArgs: kw})
	return err
}
