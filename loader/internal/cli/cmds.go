package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/docket-dev/docket/loader/internal/embed"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner"
	"github.com/docket-dev/docket/loader/internal/udf"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

func runModelsCmd(ctx context.Context, cmd string, args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	if slices.Contains(args, "-h") || slices.Contains(args, "--help") || slices.Contains(args, "-help") {
		parseModelFlags(cmd, args, stderr) // the flags' help, with or without a project
		return ExitOK
	}
	p, code := loadProject(dir, stderr)
	if p == nil {
		return code
	}
	args, err := expandResultSelectors(p, args)
	if err != nil {
		fmt.Fprintf(stderr, "docket %s: %v\n", cmd, err)
		return ExitUsage
	}
	healthVars(p)
	if prov, err := embed.New(p.Embedding); err == nil {
		if _, ok := p.Vars["embedding_model"]; !ok {
			p.Vars["embedding_model"] = prov.ModelID()
		}
	}
	return RunModels(ctx, cmd, args, p, projectUDFs(p), stdout, stderr)
}

// projectUDFs are the Go UDFs every runner connection gets. An HTTP
// provider whose dimensions are not configured is asked once (Probe).
func projectUDFs(p *project.Project) []warehouse.UDF {
	prov, err := embed.New(p.Embedding)
	if err == nil && prov.Dimensions() == 0 {
		_, err = embed.Probe(context.Background(), prov)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "docket: warning: embed() is not available: %v\n", err)
		prov = nil
	}
	return udf.All(prov)
}

// parseOptions tell the runner, which links no database, about the
// warehouse: its Go UDFs' declarations and the tables `docket load` owns.
func parseOptions(udfs []warehouse.UDF) runner.ParseOptions {
	o := runner.ParseOptions{Owned: warehouse.OwnedTables()}
	for _, u := range udfs {
		o.UDFs = append(o.UDFs, runner.Function{Name: u.Name, Params: u.Params, Result: u.Result, Version: u.Version, Doc: u.Doc, Volatile: u.Volatile})
	}
	return o
}

// healthVars exposes project.yaml's health thresholds to the health tests
// as vars (an explicit var of the same name wins).
func healthVars(p *project.Project) {
	set := func(k string, v any) {
		if _, ok := p.Vars[k]; !ok {
			p.Vars[k] = v
		}
	}
	set("health_min_success_rate", *p.Health.MinSuccessRate)
	set("health_max_mean_chars_drop", *p.Health.MaxMeanCharsDrop)
	set("health_severity", p.Health.Severity)
	set("health_min_documents", p.Health.MinDocuments)
	set("health_window", p.Health.Window)
	set("health_acknowledged_runs", p.Health.AcknowledgedRuns())
}
