package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/docket-dev/docket/loader/internal/project"
)

// runClean is `docket clean`: remove the folders docket regenerates (the
// artifacts folder, target_dir, and a dbt_project.yml's clean-targets).
// Only folders inside the project are removed, never the project's own
// files, the warehouse or its published copy.
func runClean(args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	fs := flag.NewFlagSet("clean", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dry := fs.Bool("dry-run", false, "list what would be removed")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: docket clean [--dry-run]")
		return ExitUsage
	}
	p, code := loadProject(dir, stderr)
	if p == nil {
		return code
	}
	targets, err := cleanTargets(p)
	if err != nil {
		fmt.Fprintln(stderr, "docket clean:", err)
		return ExitUsage
	}
	code = ExitOK
	for _, t := range targets {
		rel := modelsRel(p.Dir, t)
		if reason := unsafeClean(p, t); reason != "" {
			fmt.Fprintf(stderr, "docket clean: not removing %s: %s\n", rel, reason)
			code = ExitUsage
			continue
		}
		if _, err := os.Lstat(t); errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(stdout, "%s: nothing to remove\n", rel)
			continue
		}
		if *dry {
			fmt.Fprintf(stdout, "would remove %s\n", rel)
			continue
		}
		if err := os.RemoveAll(t); err != nil {
			fmt.Fprintln(stderr, "docket clean:", err)
			code = ExitFailed
			continue
		}
		fmt.Fprintf(stdout, "removed %s\n", rel)
	}
	return code
}

// cleanTargets are target_dir plus dbt_project.yml's clean-targets, as
// absolute paths, without repeats.
func cleanTargets(p *project.Project) ([]string, error) {
	target := p.TargetDir
	if target == "" {
		target = "target"
	}
	list := []string{target}
	b, err := os.ReadFile(filepath.Join(p.Dir, "dbt_project.yml"))
	if err == nil {
		var dbt struct {
			CleanTargets []string `yaml:"clean-targets"`
		}
		if err := yaml.Unmarshal(b, &dbt); err != nil {
			return nil, fmt.Errorf("dbt_project.yml: %w", err)
		}
		list = append(list, dbt.CleanTargets...)
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range list {
		if !filepath.IsAbs(t) {
			t = filepath.Join(p.Dir, t)
		}
		t = filepath.Clean(t)
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out, nil
}

// unsafeClean says why a path must not be removed ("" when it may).
func unsafeClean(p *project.Project, t string) string {
	rel, err := filepath.Rel(p.Dir, t)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "it is not inside the project folder " + p.Dir
	}
	keep := []string{p.File, p.Warehouse, filepath.Join(p.Dir, "models"), filepath.Join(p.Dir, "macros"), filepath.Join(p.Dir, "seeds"),
		filepath.Join(p.Dir, "tests"), filepath.Join(p.Dir, "snapshots"), filepath.Join(p.Dir, "dbt_project.yml")}
	for _, s := range p.Sources {
		keep = append(keep, s.Path)
	}
	for _, k := range keep {
		if k == "" {
			continue
		}
		if k == t || strings.HasPrefix(k, t+string(filepath.Separator)) {
			return "it holds " + modelsRel(p.Dir, k)
		}
	}
	return ""
}
