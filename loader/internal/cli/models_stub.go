package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// RunModels is replaced by the runner (models.go).
func RunModels(ctx context.Context, cmd string, args []string, p *project.Project, udfs []warehouse.UDF, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "docket", cmd, ": runner not built yet")
	return ExitUsage
}
