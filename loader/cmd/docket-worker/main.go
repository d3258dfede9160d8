// Command docket-worker extracts documents for `docket load`: the loader
// starts one per core and talks to it over stdin/stdout, so a crash in a C
// library costs one document. It is built beside docket (make build) and
// is not meant to be run by hand.
package main

import (
	"os"

	"github.com/docket-dev/docket/loader/internal/workercmd"
)

func main() { os.Exit(workercmd.Main(os.Stderr)) }
