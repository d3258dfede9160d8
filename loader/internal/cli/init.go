package cli

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	docket "github.com/docket-dev/docket"
)

// extra files `docket init` writes beside the shipped project.
var extra = map[string]string{
	"inbox/README.txt": `Drop documents here (PDF, scans, DOCX, PPTX, XLSX, HTML, e-mail, text), then run:

    docket load && docket build
`,
	".gitignore": "warehouse*.duckdb*\n.warehouse*.duckdb*\ntarget/\n", // the dot files: a publish's spare copy, hashes, lock
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
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	// A folder that already has files keeps every one of them: only what
	// is missing is written, and what was left alone is listed.
	var created, kept []string
	for _, name := range names {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if _, err := os.Lstat(path); err == nil {
			kept = append(kept, name)
			continue
		} else if !os.IsNotExist(err) {
			fmt.Fprintln(stderr, "docket:", err)
			return ExitFailed
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fmt.Fprintln(stderr, "docket:", err)
			return ExitFailed
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, err = f.WriteString(files[name])
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintln(stderr, "docket:", err)
			return ExitFailed
		}
		created = append(created, name)
	}
	if len(kept) > 0 {
		fmt.Fprintf(stdout, "left alone (already in %s): %s\n", dir, strings.Join(kept, ", "))
		if len(created) == 0 {
			fmt.Fprintf(stdout, "nothing to create: %s already has every file docket init writes\n", dir)
			return ExitOK
		}
		fmt.Fprintf(stdout, "created: %s\n", strings.Join(created, ", "))
	}
	fmt.Fprintf(stdout, "created project in %s: put documents in %s, then run `cd %s && docket load && docket build`\n",
		dir, filepath.Join(dir, "inbox"), dir)
	return ExitOK
}
