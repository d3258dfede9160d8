package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/docket-dev/docket/loader/internal/embed"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/udf"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

func runModelsCmd(ctx context.Context, cmd string, args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	p, code := loadProject(dir, stderr)
	if p == nil {
		return code
	}
	healthVars(p)
	return RunModels(ctx, cmd, args, p, projectUDFs(p), stdout, stderr)
}

// projectUDFs are the Go UDFs every runner connection gets.
func projectUDFs(p *project.Project) []warehouse.UDF {
	prov, err := embed.New(p.Embedding)
	if err != nil {
		prov = nil // validated with the project; a failure here leaves embed() undefined and the model says so
	}
	return udf.All(prov)
}

func runSearch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "docket search: not built yet")
	return ExitUsage
}

// healthVars exposes project.yaml's health thresholds to the health tests
// as vars (an explicit var of the same name wins).
func healthVars(p *project.Project) {
	set := func(k string, v any) {
		if _, ok := p.Vars[k]; !ok {
			p.Vars[k] = v
		}
	}
	if p.Health.MinSuccessRate > 0 {
		set("health_min_success_rate", p.Health.MinSuccessRate)
	}
	if p.Health.MaxMeanCharsDrop > 0 {
		set("health_max_mean_chars_drop", p.Health.MaxMeanCharsDrop)
	}
	set("health_severity", p.Health.Severity)
}
