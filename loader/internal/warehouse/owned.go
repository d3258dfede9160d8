package warehouse

import (
	"sort"
	"strings"
)

// OwnedTables lists the tables the loader creates and fills ("raw.documents",
// ...), lower case and sorted: no model may replace one of them.
func OwnedTables() []string {
	var out []string
	for _, t := range landedTables {
		out = append(out, strings.ToLower(t.qualified()))
	}
	sort.Strings(out)
	return out
}
