package cli

import (
	"flag"
	"io/fs"
	"strings"

	"fmt"
	docket "github.com/docket-dev/docket"
	"io"
	"os"
	"path/filepath"
)

// extra files `docket init` writes beside the shipped project.
var extra = map[string]string{
	"inbox/README.txt": `Drop documents here (PDF, scans, DOCX, PPTX, XLSX, HTML, e-mail, text), then run:

    docket load && docket build
`,
	".gitignore": "warehouse.duckdb*\ntarget/\n",
}

func runInit(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("init", flag.ContinueOnError)
	flags.SetOutput(stderr)
	if err := flags.Parse(args); err != nil {
		return ExitUsage
	}
	if flags.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: docket init DIR")
		return ExitUsage
	}
	dir := flags.Arg(0)
	if _, err := os.Stat(filepath.Join(dir, "project.yaml")); err == nil {
		fmt.Fprintf(stderr, "docket: %s already has a project.yaml; not overwriting\n", dir)
		return ExitUsage
	}
	files := map[string]string{}
	err := fs.WalkDir(docket.Scaffold, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := docket.Scaffold.ReadFile(path)
		files[path] = string(b)
		return err
	})
	if err != nil {
		fmt.Fprintln(stderr, "docket:", err)
		return ExitFailed
	}
	// The shipped project reads examples/inbox; a new one reads inbox/.
	files["project.yaml"] = strings.ReplaceAll(files["project.yaml"], "examples/inbox", "inbox")
	abs, _ := filepath.Abs(dir)
	files["project.yaml"] = strings.Replace(files["project.yaml"], "name: docket_examples", "name: "+filepath.Base(abs), 1)
	for k, v := range extra {
		files[k] = v
	}
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fmt.Fprintln(stderr, "docket:", err)
			return ExitFailed
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
