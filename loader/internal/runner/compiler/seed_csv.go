package compiler

import (
	"fmt"
	"strings"
)

// SeedCSVOptions are read_csv's options for a seed (its delimiter and
// column_types).
func SeedCSVOptions(n *Node) string {
	opts := "header = true, auto_detect = true"
	if d := n.Config.Delimiter; d != "" {
		opts += ", delim = '" + strings.ReplaceAll(d, "'", "''") + "'"
	}
	if len(n.Config.ColumnTypes) > 0 {
		var kv []string
		for _, k := range SortedKeys(n.Config.ColumnTypes) {
			kv = append(kv, fmt.Sprintf("'%s': '%s'", strings.ReplaceAll(k, "'", "''"), strings.ReplaceAll(n.Config.ColumnTypes[k], "'", "''")))
		}
		opts += ", types = {" + strings.Join(kv, ", ") + "}"
	}
	return opts
}
