package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The comparison set is go-trafilatura's own evaluation material, read from
// the Go module cache (never copied into the repository): its HTML pages
// under test-files/comparison (and test-files/mock) and, per page, the
// snippets its scripts/comparison/data.go says must be in the extracted text
// ("with") and must not ("without"). data.go is Go source: it is parsed with
// go/parser, not copied.
const (
	trafilaturaModule = "github.com/markusmobius/go-trafilatura"
	// trafilaturaVersion is the version go.mod requires (replaced by the
	// fork under third_party, which keeps no test files).
	trafilaturaVersion = "v1.12.2"
)

// heldOutName matches the comparison pages taken from the article-extraction
// benchmark (32 hex digits): the user's held-out set. They are never opened
// and never scored, whatever the flags.
var heldOutName = regexp.MustCompile(`^[0-9a-f]{32}\.html$`)

// comparisonPage is one page of the set: where its HTML is, and its snippets.
type comparisonPage struct {
	file, path    string
	with, without []string
}

// snippetScore counts snippets as go-trafilatura's scripts/comparison does:
// a "with" snippet found is a true positive, missed a false negative; a
// "without" snippet found is a false positive, absent a true negative.
type snippetScore struct{ tp, fn, fp, tn int }

func (s *snippetScore) add(o snippetScore) {
	s.tp += o.tp
	s.fn += o.fn
	s.fp += o.fp
	s.tn += o.tn
}

// prf is precision, recall and F as scripts/comparison computes them
// (F = 2TP / (2TP + FP + FN)), over all snippets of all pages.
func (s snippetScore) prf() (p, r, f float64) {
	tp, fp, fn := float64(s.tp), float64(s.fp), float64(s.fn)
	if tp+fp > 0 {
		p = tp / (tp + fp)
	}
	if tp+fn > 0 {
		r = tp / (tp + fn)
	}
	if 2*tp+fp+fn > 0 {
		f = 2 * tp / (2*tp + fp + fn)
	}
	return p, r, f
}

// scoreSnippets checks a candidate's text against a page's snippets. White
// space runs are folded to one space and soft hyphens dropped on both sides
// first (the candidates lay out blocks differently: docket joins blocks with
// blank lines, trafilatura with single newlines; see withoutSoftHyphens);
// scripts/comparison compares the raw strings.
func scoreSnippets(pg comparisonPage, text string) snippetScore {
	var s snippetScore
	text = collapseSpace(text)
	for _, w := range pg.with {
		if text != "" && strings.Contains(text, collapseSpace(w)) {
			s.tp++
		} else {
			s.fn++
		}
	}
	for _, w := range pg.without {
		if text != "" && strings.Contains(text, collapseSpace(w)) {
			s.fp++
		} else {
			s.tn++
		}
	}
	return s
}

// collapseSpace folds white space runs to one space, and drops soft hyphens
// (withoutSoftHyphens).
func collapseSpace(s string) string { return strings.Join(strings.Fields(withoutSoftHyphens(s)), " ") }

// trafilaturaDir is go-trafilatura's folder in the module cache.
func trafilaturaDir() (string, error) { return moduleDir(trafilaturaModule, trafilaturaVersion) }

// moduleDir is a Go module's folder in the module cache: `go mod download
// -json` prints it, downloading the module first when it is missing.
func moduleDir(module, version string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", module+"@"+version)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr == nil && info.Error != "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", module, version, info.Error)
	}
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %v %s", module, version, err, strings.TrimSpace(stderr.String()))
	}
	if info.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s printed no folder", module, version)
	}
	return info.Dir, nil
}

// comparisonPages reads the set's pages from the module folder dir: every
// entry of data.go's comparisonData whose file is in test-files/comparison
// or test-files/mock (the folders scripts/comparison looks in), less the
// held-out ones (heldOutName), sorted by file name. heldOut counts those
// left out.
func comparisonPages(dir string) (pages []comparisonPage, heldOut int, err error) {
	src := filepath.Join(dir, "scripts", "comparison", "data.go")
	f, err := parser.ParseFile(token.NewFileSet(), src, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, 0, err
	}
	var data *ast.CompositeLit
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if name.Name == "comparisonData" && i < len(vs.Values) {
					data, _ = vs.Values[i].(*ast.CompositeLit)
				}
			}
		}
	}
	if data == nil {
		return nil, 0, fmt.Errorf("%s: no comparisonData map literal", src)
	}
	for _, elt := range data.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		entry, ok := kv.Value.(*ast.CompositeLit)
		if !ok {
			continue
		}
		var pg comparisonPage
		for _, fe := range entry.Elts {
			fkv, ok := fe.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			key, _ := fkv.Key.(*ast.Ident)
			if key == nil {
				continue
			}
			switch key.Name {
			case "File":
				pg.file, err = stringLit(fkv.Value)
			case "With":
				pg.with, err = stringList(fkv.Value)
			case "Without":
				pg.without, err = stringList(fkv.Value)
			}
			if err != nil {
				return nil, 0, fmt.Errorf("%s: %v", src, err)
			}
		}
		if pg.file == "" {
			continue
		}
		if heldOutName.MatchString(pg.file) {
			heldOut++
			continue
		}
		for _, sub := range []string{"comparison", "mock"} {
			p := filepath.Join(dir, "test-files", sub, pg.file)
			if _, err := os.Stat(p); err == nil {
				pg.path = p
				break
			}
		}
		if pg.path != "" && len(pg.with)+len(pg.without) > 0 {
			pages = append(pages, pg)
		}
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].file < pages[j].file })
	return pages, heldOut, nil
}

func stringLit(e ast.Expr) (string, error) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", fmt.Errorf("not a string literal: %T", e)
	}
	return strconv.Unquote(lit.Value)
}

func stringList(e ast.Expr) ([]string, error) {
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil, fmt.Errorf("not a list literal: %T", e)
	}
	var out []string
	for _, x := range cl.Elts {
		s, err := stringLit(x)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// evalComparison scores every candidate on the comparison set and prints
// the figures of each split. It prints one skip line and returns when the
// set cannot be read.
func evalComparison(loop pageLoop) {
	dir, err := trafilaturaDir()
	var pages []comparisonPage
	heldOut := 0
	if err == nil {
		pages, heldOut, err = comparisonPages(dir)
	}
	if err != nil || len(pages) == 0 {
		if err == nil {
			err = fmt.Errorf("no page found under %s", dir)
		}
		fmt.Printf("go-trafilatura comparison set skipped: %v\n", err)
		return
	}
	sums := map[string]map[string]*snippetScore{"tune": {}, "report": {}}
	counts := map[string]int{}
	set := make([]setPage, len(pages))
	for i, pg := range pages {
		set[i] = setPage{pg.file, pg.path}
	}
	cands := loop.cands
	loop.run(set, 50, func(i int, split string, _ []byte, texts []string) string {
		counts[split]++
		line := ""
		for k, c := range cands {
			s := scoreSnippets(pages[i], texts[k])
			if sums[split][c.name] == nil {
				sums[split][c.name] = &snippetScore{}
			}
			sums[split][c.name].add(s)
			line += fmt.Sprintf("  %s +%d/%d -%d/%d", c.short, s.tp, s.tp+s.fn, s.fp, s.fp+s.tn)
		}
		return line
	})
	fmt.Printf("HTML main content, go-trafilatura %s's comparison pages (module cache, %d pages; the %d pages named by 32 hex digits, the article-extraction benchmark's, are held out: never opened, never scored)\n",
		trafilaturaVersion, len(pages), heldOut)
	fmt.Println("snippets the page's text must hold (with) and must not (without), counted over all pages as its scripts/comparison: P = TP/(TP+FP), R = TP/(TP+FN), F = 2TP/(2TP+FP+FN)")
	fmt.Println("(no whole-article word F1 here, the held-out benchmark's metric: the set's data.go gives snippets and metadata per page, no whole expected text; html-main's word F1 and the goose set's whole bodies are that kind)")
	for _, split := range []string{"tune", "report"} {
		n := counts[split]
		if n == 0 {
			continue
		}
		fmt.Printf("%-6s (%d pages)%s\n", split, n, splitMark(split))
		for _, c := range cands {
			s := sums[split][c.name]
			p, r, f := s.prf()
			fmt.Printf("  %-20s P %.3f  R %.3f  F %.3f\n", c.name, p, r, f)
		}
	}
}
