package table

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf/tablegen"
)

func TestZZDebug(t *testing.T) {
	seed, _ := strconv.Atoi(os.Getenv("SEED"))
	d, _ := tablegen.Generate(uint64(seed))
	name := filepath.Join(t.TempDir(), "gen.pdf")
	os.WriteFile(name, d.PDF, 0o644)
	for _, tb := range detectFile(t, name) {
		fmt.Println(tb.BBox)
		for _, r := range cellsOf(tb) {
			fmt.Printf("%q\n", r)
		}
	}
}
