package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// scaffold is what `docket init` writes: a project that loads and builds.
var scaffold = map[string]string{
	"project.yaml": `version: 1
name: %s
warehouse: warehouse.duckdb
sources:
  - name: inbox
    path: inbox
loader:
  workers: 0              # 0 = one worker process per core
  timeout: 5m             # per document
  max_file_size: 512MB
  max_pages: 5000
  min_chars_per_page: 16  # fewer real characters: the page needs OCR
ocr:
  languages: [eng]
  dpi: 300
  min_word_confidence: 60
  review_below: 70
models:
  staging: {+materialized: view}
vars: {}
`,
	"models/sources.yml": `version: 2
sources:
  - name: raw
    schema: raw
    tables: [{name: documents}, {name: document_versions}]
  - name: staging
    schema: staging
    tables: [{name: pages}, {name: elements}, {name: tables}, {name: ocr_words}, {name: extractions}]
  - name: ops
    schema: ops
    tables: [{name: load_runs}, {name: document_events}]
`,
	"models/staging/stg_documents.sql": `select * from {{ source('raw', 'documents') }} where status <> 'deleted'
`,
	"macros/.keep": "",
	"seeds/.keep":  "",
	"tests/.keep":  "",
	"inbox/README.txt": `Drop documents here (PDF, scans, DOCX, PPTX, XLSX, HTML, e-mail, text), then run:

    docket load && docket build
`,
	".gitignore": "warehouse.duckdb*\ntarget/\n",
}

func runInit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: docket init DIR")
		return ExitUsage
	}
	dir := fs.Arg(0)
	if _, err := os.Stat(filepath.Join(dir, "project.yaml")); err == nil {
		fmt.Fprintf(stderr, "docket: %s already has a project.yaml; not overwriting\n", dir)
		return ExitUsage
	}
	abs, _ := filepath.Abs(dir)
	for name, body := range scaffold {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fmt.Fprintln(stderr, "docket:", err)
			return ExitFailed
		}
		if name == "project.yaml" {
			body = fmt.Sprintf(body, filepath.Base(abs))
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			fmt.Fprintln(stderr, "docket:", err)
			return ExitFailed
		}
	}
	fmt.Fprintf(stdout, "created project in %s: put documents in %s, then run `cd %s && docket load && docket build`\n",
		dir, filepath.Join(dir, "inbox"), dir)
	return ExitOK
}
