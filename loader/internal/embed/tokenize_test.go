package embed

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestTokenizeSQLMatchesMacro: the dbt macro tokenize in
// macros/retrieval.sql and TokenizeSQL write the same SQL, so the two cannot
// drift apart.
func TestTokenizeSQLMatchesMacro(t *testing.T) {
	src, err := os.ReadFile("../../../macros/retrieval.sql")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)\{%-?\s*macro\s+tokenize\(\s*(\w+)\s*\)\s*(-?)%\}(.*?)\{%(-?)\s*endmacro\s*-?%\}`).FindSubmatch(src)
	if m == nil {
		t.Fatal("no tokenize macro in macros/retrieval.sql")
	}
	arg, body := string(m[1]), string(m[3])
	// Jinja whitespace control: "-%}" trims after the tag, "{%-" before it.
	if string(m[2]) == "-" {
		body = strings.TrimLeft(body, " \t\r\n")
	}
	if string(m[4]) == "-" {
		body = strings.TrimRight(body, " \t\r\n")
	}
	const expr = "c.text"
	rendered := regexp.MustCompile(`\{\{-?\s*`+regexp.QuoteMeta(arg)+`\s*-?\}\}`).ReplaceAllLiteralString(body, expr)
	if strings.Contains(rendered, "{{") || strings.Contains(rendered, "{%") {
		t.Fatalf("macro body has template code besides {{ %s }}: %q", arg, body)
	}
	if want := TokenizeSQL(expr); rendered != want {
		t.Errorf("tokenize(%s) in macros/retrieval.sql renders to\n%s\nTokenizeSQL(%q) is\n%s", arg, rendered, expr, want)
	}
}
