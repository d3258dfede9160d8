package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// runSource dispatches `docket source SUBCOMMAND`.
func runSource(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "freshness" {
		fmt.Fprintln(stderr, "usage: docket source freshness [-s SELECTOR] [-o target/sources.json] [--vars YAML] [--target NAME]")
		return ExitUsage
	}
	return runSourceFreshness(ctx, args[1:], stdout, stderr)
}

// runSourceFreshness is `docket source freshness`: how long ago each
// source with freshness criteria was loaded, against warn_after and
// error_after; writes target/sources.json (dbt's sources/v3). Exit 1 when
// a source is past error_after or cannot be checked.
func runSourceFreshness(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	fs := flag.NewFlagSet("docket source freshness", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sel, exc selectorList
	fs.Var(&sel, "s", "sources to check (source:NAME, source:NAME.TABLE, ...)")
	fs.Var(&sel, "select", "same as -s")
	fs.Var(&exc, "exclude", "sources not to check")
	output := fs.String("output", "", "where to write the results (default TARGET_DIR/sources.json)")
	fs.StringVar(output, "o", "", "same as --output")
	// dbt's source freshness takes --vars and --target: a source's
	// identifier or external_location may name a var (it was "flag provided
	// but not defined", and the var's default, a path elsewhere, was read)
	mf := &modelFlags{}
	mf.addDbtFlags(fs, "to check", "")
	if err := fs.Parse(gatherSelectors(args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "docket source freshness: unexpected argument %q\n", fs.Arg(0))
		return ExitUsage
	}
	loaded, code := loadProject(dir, stderr)
	if loaded == nil {
		return code
	}
	pp, _, vars, ok := mf.settings("source freshness", loaded, stderr)
	if !ok {
		return ExitUsage
	}
	p := &pp
	start := time.Now()
	opts := parseOptions(projectUDFs(p))
	opts.Which = "freshness" // dbt source freshness's flags.WHICH
	opts.Vars = vars
	m, diags, err := runner.Parse(p, opts)
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitUsage
	}
	if len(diags) > 0 {
		for _, d := range diags {
			fmt.Fprintln(stderr, d)
		}
		fmt.Fprintf(stderr, "docket source freshness: %d problem%s in the project; nothing was checked\n", len(diags), modelsPlural(len(diags)))
		return ExitUsage
	}
	ids, err := m.Select(sel, exc, runner.Source)
	if err != nil {
		fmt.Fprintln(stderr, "docket source freshness:", err)
		return ExitUsage
	}
	sources := m.FreshnessSources(ids)
	if len(sources) == 0 {
		fmt.Fprintln(stdout, "Nothing to do: no selected source declares freshness (freshness: {warn_after: {count: 1, period: day}} in sources.yml).")
		return ExitOK
	}
	db, code := openReader(ctx, p, stderr)
	if db == nil {
		return code
	}
	// a source with database: <attach alias> is read where build reads it
	// (it was "Catalog ... does not exist" for every such source)
	if err := runner.Attach(ctx, db.SQL(), m); err != nil {
		db.Close()
		fmt.Fprintln(stderr, "docket:", err)
		return ExitUsage
	}
	var later time.Time // loads the read copy does not record (they found nothing new)
	if st, _ := warehouse.ReadStamp(p.Warehouse); st != nil {
		later = st.LatestUnpublishedLoad()
	}
	results := runner.CheckFreshness(ctx, runner.SQLQuerier(db.SQL()), sources, runner.FreshnessOptions{LaterLoad: later})
	db.Close()

	code = ExitOK
	fmt.Fprintf(stdout, "Found %d source%s with freshness\n\n", len(sources), modelsPlural(len(sources)))
	for i, r := range results {
		var tag string
		switch r.Status {
		case runner.FreshRTE:
			tag = "[ERROR]"
			code = ExitFailed
		default:
			by := ""
			if r.FromLoad {
				by = " by docket load"
			}
			tag = fmt.Sprintf("[%s: loaded %s%s]", strings.ToUpper(r.Status), ageText(r), by)
			if r.Status == runner.FreshError {
				code = ExitFailed
			}
		}
		head := fmt.Sprintf("%d of %d %s freshness of %s ", i+1, len(results), strings.ToUpper(strings.Replace(r.Status, "runtime error", "error", 1)), r.Source)
		fmt.Fprintln(stdout, head+strings.Repeat(".", max(3, 72-len(head)))+" "+tag)
		if r.Error != nil {
			fmt.Fprintf(stdout, "    %s\n", *r.Error)
		} else if r.Status != runner.FreshPass {
			fmt.Fprintf(stdout, "    warn after %s, error after %s\n", r.Criteria.WarnAfter, r.Criteria.ErrorAfter)
		}
	}
	out := *output
	if out == "" {
		out = filepath.Join(p.TargetDir, "sources.json")
	} else if !filepath.IsAbs(out) {
		out = filepath.Join(p.Dir, out)
	}
	doc := runner.SourcesArtifact{
		Metadata: map[string]any{"dbt_schema_version": "https://schemas.getdbt.com/dbt/sources/v3.json", "dbt_version": "docket-" + versionString(),
			"generated_at": time.Now().UTC().Format("2006-01-02T15:04:05.000000Z"), "invocation_id": fmt.Sprintf("%x", start.UnixNano()), "env": map[string]string{}},
		Results: results, ElapsedTime: time.Since(start).Seconds(),
	}
	if doc.Results == nil {
		doc.Results = []runner.FreshnessResult{}
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitFailed
	}
	if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitFailed
	}
	fmt.Fprintf(stdout, "\nDone. Results in %s\n", modelsRel(p.Dir, out))
	return code
}

// ageText is how long ago r's source was loaded, or how far in the
// future its newest load time lies (a sentinel such as 2999-01-01: the
// duration saturated, "loaded -2562047h47m16s ago").
func ageText(r runner.FreshnessResult) string {
	secs := r.Age.Seconds()
	if r.AgeSeconds != nil {
		secs = *r.AgeSeconds
	}
	a := math.Abs(secs)
	text := fmt.Sprintf("%.1f days", a/86400)
	if a < 48*3600 {
		text = roundAge(time.Duration(a * 1e9))
	}
	if secs < 0 {
		return text + " in the future"
	}
	return text + " ago"
}

func roundAge(d time.Duration) string {
	switch {
	case d < time.Hour:
		return d.Round(time.Second).String()
	case d < 48*time.Hour:
		return d.Round(time.Minute).String()
	}
	return fmt.Sprintf("%.1f days", d.Hours()/24)
}
