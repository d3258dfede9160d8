package warehouse

import (
	"regexp"
	"sort"
	"strings"
)

var createTableRe = regexp.MustCompile(`(?i)^\s*create table if not exists\s+([a-z_]+)\.([a-z_]+)`)

// OwnedTables lists the tables the loader creates and fills ("raw.documents",
// ...), lower case and sorted: no model may replace one of them.
func OwnedTables() []string {
	var out []string
	for _, q := range ddl {
		if m := createTableRe.FindStringSubmatch(q); m != nil {
			out = append(out, strings.ToLower(m[1]+"."+m[2]))
		}
	}
	sort.Strings(out)
	return out
}
