package executor

import (
	"regexp"
	"slices"
)

// addColumnIfNotExists matches an upgrade hook of an incremental model:
// `alter table <rel> add [column] if not exists ...`, which gives a table
// built by an older version of the model a column it lacks.
var addColumnIfNotExists = regexp.MustCompile(`(?is)^\s*alter\s+table\s+\S+\s+add\s+(column\s+)?if\s+not\s+exists\s`)

// upgradeHook runs hook statement q when it is such an upgrade hook of the
// model's own relation, and reports whether it did (ran) and whether it
// left the relation's columns as they were (noop): a hook that added
// nothing changed no data, so it must not make the model count as changed
// (noteHook treats DDL as opaque). Any other statement is not run here.
func (x *nodeExec) upgradeHook(q string) (ran, noop bool, err error) {
	if !addColumnIfNotExists.MatchString(q) {
		return false, false, nil
	}
	before, err := x.columns(x.n.Relation)
	if err != nil {
		return false, false, nil // not this model's table (or none yet): the ordinary path
	}
	if _, err := x.exec(q); err != nil {
		return true, false, err
	}
	after, err := x.columns(x.n.Relation)
	return true, err == nil && slices.Equal(before, after), nil
}
