package compiler

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// The printing methods of an agate table (run_query's result), which dbt
// run-operation macros call to show what they found: print_table
// (max_rows=20, max_columns=6, max_column_width=20, as agate's defaults),
// print_json (indent) and print_structure. agate writes to stdout; here the
// text goes where log(msg, info=True) and print() go (ParseOptions.Log),
// one message per line. Written here rather than bound to a library: it is
// agate's layout of a few rows, nothing Go has.

func (t *resultTable) print(method string, va *exec.VarArgs) error {
	if t.log == nil {
		return nil
	}
	kw := func(name string, pos, def int) int {
		if va != nil {
			if v, ok := va.KwArgs[name]; ok && v.IsInteger() {
				return v.Integer()
			}
			if pos < len(va.Args) && va.Args[pos].IsInteger() {
				return va.Args[pos].Integer()
			}
		}
		return def
	}
	var text string
	switch method {
	case "print_json":
		text = t.json(kw("indent", 0, -1))
	case "print_structure":
		text = t.structure()
	default:
		text = t.table(kw("max_rows", 0, 20), kw("max_columns", 1, 6), kw("max_column_width", 3, 20))
	}
	for _, line := range strings.Split(text, "\n") {
		t.log(line)
	}
	return nil
}

// table is agate's print_table: a Markdown-like grid, numbers right
// aligned, "..." for rows, columns and text past the limits.
func (t *resultTable) table(maxRows, maxCols, maxWidth int) string {
	names := t.names
	cut := maxCols >= 0 && len(names) > maxCols
	if cut {
		names = names[:maxCols]
	}
	rows := t.rows
	moreRows := maxRows >= 0 && len(rows) > maxRows
	if moreRows {
		rows = rows[:maxRows]
	}
	clip := func(s string) string {
		if maxWidth > 3 && utf8.RuneCountInString(s) > maxWidth {
			r := []rune(s)
			return string(r[:maxWidth-3]) + "..."
		}
		return s
	}
	grid := [][]string{}
	numeric := make([]bool, len(names))
	for i := range names {
		numeric[i] = len(rows) > 0
	}
	for _, r := range rows {
		line := []string{}
		for i := range names {
			v := r.vals[i]
			if v != nil && !isNumber(v) {
				numeric[i] = false
			}
			line = append(line, clip(agateText(v)))
		}
		grid = append(grid, line)
	}
	header := make([]string, len(names))
	for i, n := range names {
		header[i] = clip(n)
	}
	if cut {
		header = append(header, "...")
		numeric = append(numeric, false)
		for i := range grid {
			grid[i] = append(grid[i], "...")
		}
	}
	if moreRows {
		dots := make([]string, len(header))
		for i := range dots {
			dots[i] = "..."
		}
		grid = append(grid, dots)
	}
	width := make([]int, len(header))
	for i, h := range header {
		width[i] = utf8.RuneCountInString(h)
	}
	for _, line := range grid {
		for i, c := range line {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	write := func(cells []string, right bool) {
		b.WriteString("|")
		for i, c := range cells {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if right && numeric[i] {
				b.WriteString(" " + pad + c + " |")
			} else {
				b.WriteString(" " + c + pad + " |")
			}
		}
		b.WriteString("\n")
	}
	write(header, false)
	div := make([]string, len(header))
	for i := range div {
		div[i] = strings.Repeat("-", width[i])
	}
	write(div, false)
	for _, line := range grid {
		write(line, true)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// floater is a DECIMAL as the driver returns it.
type floater interface{ Float64() float64 }

// isNumber: agate's Number (integers, floats, decimals).
func isNumber(v any) bool {
	switch v.(type) {
	case int, int64, float64, floater:
		return true
	}
	return false
}

// agateText is a value as agate prints it (None for null, True/False).
func agateText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case bool:
		if x {
			return "True"
		}
		return "False"
	case float64:
		return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", x), "0"), ".")
	case floater:
		return agateText(x.Float64())
	}
	return fmt.Sprint(v)
}

// json is agate's print_json: a list of one object per row (indent < 0:
// on one line).
func (t *resultTable) json(indent int) string {
	var b strings.Builder
	b.WriteString("[")
	for i, r := range t.rows {
		if i > 0 {
			b.WriteString(", ")
		}
		if indent >= 0 {
			b.WriteString("\n" + strings.Repeat(" ", indent))
		}
		b.WriteString("{")
		for j, n := range t.names {
			if j > 0 {
				b.WriteString(", ")
			}
			k, _ := json.Marshal(n)
			x := r.vals[j]
			if d, ok := x.(floater); ok {
				x = d.Float64()
			}
			v, err := json.Marshal(x)
			if err != nil {
				v, _ = json.Marshal(fmt.Sprint(r.vals[j]))
			}
			b.Write(k)
			b.WriteString(": ")
			b.Write(v)
		}
		b.WriteString("}")
	}
	if indent >= 0 && len(t.rows) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]")
	return b.String()
}

// structure is agate's print_structure: each column's name and type.
func (t *resultTable) structure() string {
	rows := make([]*resultRow, len(t.names))
	names := []string{"column", "data_type"}
	for i, n := range t.names {
		typ := "Text"
		for _, r := range t.rows {
			v := r.vals[i]
			if v == nil {
				continue
			}
			if isNumber(v) {
				typ = "Number"
			} else if _, ok := v.(bool); ok {
				typ = "Boolean"
			}
			break
		}
		rows[i] = &resultRow{names: &names, vals: []any{n, typ}}
	}
	return (&resultTable{names: names, rows: rows}).table(-1, -1, -1)
}
