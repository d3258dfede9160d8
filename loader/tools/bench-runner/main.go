// Command bench-runner times the model runner's parse and compile pass (no
// database) over a generated project of 500 models: chains and fans with
// refs, vars and a macro. It prints the time next to dbt's known figure.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner"
)

func main() {
	n := flag.Int("models", 500, "models to generate")
	rounds := flag.Int("rounds", 3, "timed parses (the best is reported)")
	flag.String("corpus", "", "unused (the project is generated)")
	dirFlag := flag.String("dir", "", "parse this project folder instead of a generated one (CPU per parse is reported)")
	varsFlag := flag.String("vars", "", "with -dir: project vars as key=value,key=value")
	writeFlag := flag.String("write", "", "write the generated project to this folder and exit (to time it with -dir)")
	flag.Parse()
	if *writeFlag != "" {
		if err := generate(*writeFlag, *n); err != nil {
			fail(err)
		}
		return
	}
	if *dirFlag != "" {
		benchDir(*dirFlag, *varsFlag, *rounds)
		return
	}
	dir, err := os.MkdirTemp("", "bench-runner-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	if err := generate(dir, *n); err != nil {
		fail(err)
	}
	p, err := project.Load(dir)
	if err != nil {
		fail(err)
	}
	best := time.Duration(1 << 62)
	var m *runner.Manifest
	for i := 0; i < *rounds; i++ {
		t0 := time.Now()
		mm, diags, err := runner.Parse(p, runner.ParseOptions{})
		if err != nil {
			fail(err)
		}
		if len(diags) > 0 {
			fail(fmt.Errorf("generated project has %d problems, first: %s", len(diags), diags[0]))
		}
		if d := time.Since(t0); d < best {
			best = d
		}
		m = mm
	}
	t0 := time.Now()
	if err := runner.WriteArtifacts(m, filepath.Join(dir, "target"), nil); err != nil {
		fail(err)
	}
	write := time.Since(t0)
	models := 0
	for _, nd := range m.Nodes {
		if nd.ResourceType == runner.Model {
			models++
		}
	}
	fmt.Printf("runner parse+compile: %d models, %d nodes in %.0f ms (best of %d); writing target/ %.0f ms\n",
		models, len(m.Nodes), best.Seconds()*1000, *rounds, write.Seconds()*1000)
	fmt.Printf("dbt needs several seconds for ~500 models (dbt parse, no partial parsing); target < 1 s: %s\n",
		map[bool]string{true: "met", false: "NOT met"}[best < time.Second])
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench-runner:", err)
	os.Exit(1)
}

// generate writes n models in 5 layers: each layer's models ref one or two
// models of the previous layer (chains and fans), use a var and a macro.
func generate(dir string, n int) error {
	files := map[string]string{
		"project.yaml":       "version: 1\nname: bench\nvars:\n  min_len: 3\nmodels:\n  l0: {+materialized: view}\n  l4: {+materialized: table, +tags: [top]}\n",
		"macros/m.sql":       "{% macro norm(col) %}lower(trim({{ col }})){% endmacro %}\n{% macro keep(col, n=var('min_len')) -%}length({{ col }}) >= {{ n }}{%- endmacro %}\n",
		"models/sources.yml": "version: 2\nsources:\n  - name: raw\n    tables:\n      - name: documents\n",
	}
	per := n / 5
	name := func(layer, i int) string { return fmt.Sprintf("m%d_%03d", layer, i) }
	for layer := 0; layer < 5; layer++ {
		count := per
		if layer == 4 {
			count = n - 4*per
		}
		var yml string
		for i := 0; i < count; i++ {
			var body string
			if layer == 0 {
				body = "select doc_id, {{ norm('rel_path') }} as path\nfrom {{ source('raw', 'documents') }}\nwhere {{ keep('rel_path') }}\n"
			} else {
				a := name(layer-1, i%per)
				b := name(layer-1, (i*7+3)%per)
				body = fmt.Sprintf("{{ config(materialized='%s') }}\nwith a as (select * from {{ ref('%s') }}),\nb as (select * from {{ ref('%s') }})\n"+
					"select a.doc_id, {{ norm('a.path') }} as path{%% for k in range(3) %%}, {{ k }} as c{{ k }}{%% endfor %%}\nfrom a join b using (doc_id)\nwhere {{ keep('a.path', var('min_len') + %d) }}\n",
					[]string{"view", "table", "incremental"}[i%3], a, b, layer)
			}
			files[fmt.Sprintf("models/l%d/%s.sql", layer, name(layer, i))] = body
			yml += fmt.Sprintf("  - name: %s\n    columns:\n      - name: doc_id\n        tests: [not_null]\n", name(layer, i))
		}
		files[fmt.Sprintf("models/l%d/schema.yml", layer)] = "version: 2\nmodels:\n" + yml
	}
	for p, s := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			return err
		}
	}
	return nil
}
