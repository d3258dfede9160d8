package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

func runModelsCmd(ctx context.Context, cmd string, args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	p, code := loadProject(dir, stderr)
	if p == nil {
		return code
	}
	return RunModels(ctx, cmd, args, p, projectUDFs(p), stdout, stderr)
}

// projectUDFs are the Go UDFs every runner connection gets.
func projectUDFs(p *project.Project) []warehouse.UDF { return nil }

func runSearch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "docket search: not built yet")
	return ExitUsage
}
