package pdf

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestHotPathsUseBuiltinMinMax: the page walk and table detection call the
// builtin min and max, not math.Min and math.Max. On amd64 those are an
// assembly call each, never inlined (~0.9 % of a PDF worker's instructions
// over the 149 bench-load PDFs went to them and their calls), and the
// language gives the builtins math's answers for floats (max(-0, +0) is
// +0, min of them -0, NaN against a finite value NaN) but one: an
// infinity against NaN is NaN for the builtins and the infinity for
// math.Max(+Inf, NaN) / math.Min(-Inf, NaN) (review41); no output
// changed on the corpus, adversarial and odd-geometry PDFs.
func TestHotPathsUseBuiltinMinMax(t *testing.T) {
	fset := token.NewFileSet()
	n := 0
	for _, dir := range []string{".", "table"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files in %s (%v)", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			n++
			ast.Inspect(file, func(nd ast.Node) bool {
				sel, ok := nd.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "math" && (sel.Sel.Name == "Max" || sel.Sel.Name == "Min") {
					t.Errorf("%s: math.%s: use the builtin %s (inlined; math's results but for an infinity against NaN)", fset.Position(sel.Pos()),
						sel.Sel.Name, strings.ToLower(sel.Sel.Name))
				}
				return true
			})
		}
	}
	if n < 20 {
		t.Fatalf("only %d source files read", n)
	}
}
