package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/docket-dev/docket/loader/internal/runner"
)

type selectorList []string

func (m *selectorList) String() string     { return strings.Join(*m, " ") }
func (m *selectorList) Set(v string) error { *m = append(*m, v); return nil }

// gatherSelectors joins the words after -s/--select/--exclude (dbt takes
// "-s a b c") into one flag value, so the standard flag package can parse.
func gatherSelectors(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name := strings.TrimLeft(a, "-")
		if strings.HasPrefix(a, "-") && (name == "s" || name == "select" || name == "exclude" || name == "m" || name == "models") {
			var words []string
			for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				words = append(words, args[i+1])
				i++
			}
			out = append(out, a, strings.Join(words, " "))
			continue
		}
		out = append(out, a)
	}
	return out
}

// choose is the command's selection: -s/--exclude, --selector NAME, or
// the selectors.yml default (default: true) when neither is given, as
// dbt does; using the default is said on stderr.
func (f *modelFlags) choose(m *runner.Manifest, indirect string, stderr io.Writer, types ...string) ([]string, error) {
	hasSel := len(f.selects) > 0 || len(f.excludes) > 0
	switch {
	case f.selector != "" && hasSel:
		return nil, fmt.Errorf("--selector cannot be combined with -s/--select or --exclude: put the whole selection in selectors.yml, or use -s/--exclude alone")
	case f.selector != "":
		return m.SelectSelector(f.selector, indirect, types...)
	case !hasSel && m.DefaultSelector != "":
		fmt.Fprintf(stderr, "using the default selector %q from selectors.yml (give -s or --selector to choose another)\n", m.DefaultSelector)
		return m.SelectSelector(m.DefaultSelector, indirect, types...)
	}
	return m.SelectIndirect(f.selects, f.excludes, indirect, types...)
}

// narrowed says the command names its nodes (so compile prints one
// model's SQL): -s or --selector, not the default selection.
func (f *modelFlags) narrowed() bool {
	return len(f.selects) > 0 || f.selector != ""
}
