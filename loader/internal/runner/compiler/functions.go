package compiler

import (
	"fmt"
	"strings"
)

// Function declares one Go UDF the warehouse registers (the declaration
// of warehouse.UDF, without its Go code): the runner keeps it out of
// views, lists it in manifest.json and fingerprints nodes with it.
type Function struct {
	Name     string
	Params   []string
	Result   string
	Version  string
	Doc      string
	Volatile bool
}

// Signature renders "name(T, T) -> R".
func (f Function) Signature() string {
	return fmt.Sprintf("%s(%s) -> %s", f.Name, strings.Join(f.Params, ", "), f.Result)
}
