package compiler

import (
	"math/big"
	"strings"
	"unicode/utf8"
)

// AgateType is the agate data type dbt's type tester gives a column of a
// query's result (dbt-common's agate_helper: Integer, Number, Date,
// DateTime, Boolean, Text); print_table lays a column out by it.
type AgateType int

const (
	AgateText     AgateType = iota
	AgateInteger            // dbt's Integer (whole numbers; a column of nulls too): printed as is
	AgateNumber             // floats and decimals: grouped thousands, the column's decimal places
	AgateBoolean            // printed True / False by the caller
	AgateDate               // a date
	AgateDateTime           // a timestamp
)

// String is the type's agate class name (print_structure).
func (t AgateType) String() string {
	return [...]string{"Text", "Integer", "Number", "Boolean", "Date", "DateTime"}[t]
}

// AgateColumn is one column for AgateTable: its name and type.
type AgateColumn struct {
	Name string
	Type AgateType
}

// AgateLimits are print_table's max_rows, max_columns and
// max_column_width (negative: no limit).
type AgateLimits struct{ Rows, Columns, Width int }

// AgateTable lays rows out as agate's print_table does (agate 1.7,
// agate/table/print_table.py), which dbt show's text output and a
// macro's run_query(...).print_table() print: a header row, a `| -- |`
// rule, one line a row; a Text column left-justified and every other
// (numbers, booleans, dates) right-justified, its header too; a Number
// column with its thousands grouped and the column's most decimal places
// (at most 3, then "…"); names and values past Width cut to "...", a
// "..." column and a "..." row for what is left out (agate sizes the
// columns before it: in a column narrower than 3 its line juts out). A nil cell is NULL
// (blank). Written here rather than bound to a library: it is agate's
// layout, nothing Go has, shared by cli's show and run-operation's
// print_table so the two cannot drift apart.
func AgateTable(cols []AgateColumn, rows [][]*string, lim AgateLimits) string {
	shown := cols
	if lim.Columns >= 0 && len(cols) > lim.Columns {
		shown = cols[:lim.Columns]
	}
	body := rows
	if lim.Rows >= 0 && len(rows) > lim.Rows {
		body = rows[:lim.Rows]
	}
	clip := func(s string) string {
		if lim.Width >= 0 && utf8.RuneCountInString(s) > lim.Width {
			return string([]rune(s)[:max(lim.Width-3, 0)]) + "..."
		}
		return s
	}
	right := make([]bool, len(shown))
	header := make([]string, len(shown))
	for j, c := range shown {
		right[j] = c.Type != AgateText
		header[j] = clip(c.Name)
	}
	grid := make([][]string, len(body))
	for j, c := range shown {
		format := func(s string) string { return s }
		if c.Type == AgateNumber {
			format = numberFormatter(body, j)
		}
		for i, r := range body {
			if grid[i] == nil {
				grid[i] = make([]string, 0, len(shown)+1)
			}
			v := ""
			if r[j] != nil {
				v = format(*r[j])
			}
			grid[i] = append(grid[i], clip(v))
		}
	}
	if len(shown) < len(cols) {
		header = append(header, "...")
		right = append(right, cols[len(shown)].Type != AgateText)
		for i := range grid {
			grid[i] = append(grid[i], "...")
		}
	}
	width := make([]int, len(header))
	for j, h := range header {
		width[j] = utf8.RuneCountInString(h)
	}
	for _, line := range grid {
		for j, c := range line {
			width[j] = max(width[j], utf8.RuneCountInString(c))
		}
	}
	if len(body) < len(rows) {
		// as agate's: the "..." row does not widen a column narrower
		// than 3 (its line is then longer than the others)
		dots := make([]string, len(header))
		for j := range dots {
			dots[j] = "..."
		}
		grid = append(grid, dots)
	}
	var b strings.Builder
	write := func(cells []string, justify bool) {
		b.WriteString("|")
		for j, c := range cells {
			pad := strings.Repeat(" ", max(width[j]-utf8.RuneCountInString(c), 0))
			if justify && right[j] {
				c = pad + c
			} else {
				c += pad
			}
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	write(header, true)
	rule := make([]string, len(header))
	for j := range rule {
		rule[j] = strings.Repeat("-", width[j])
	}
	write(rule, false)
	for _, line := range grid {
		write(line, true)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// agateMaxPlaces is print_table's max_precision default.
const agateMaxPlaces = 3

// numberFormatter is agate's formatter for column j of a Number column
// (utils.max_precision, make_number_formatter, babel's format_decimal in
// en_US): every value with the column's most decimal places (trailing
// zeros not counted), at most 3 and then "…", half to even, thousands
// grouped with commas, the sign taken before rounding (-0.0001: -0.000…). A value that is no decimal number (nan, inf) is
// printed as it is.
func numberFormatter(rows [][]*string, j int) func(string) string {
	places := 0
	for _, r := range rows {
		if r[j] == nil {
			continue
		}
		if x, ok := new(big.Rat).SetString(*r[j]); ok {
			places = max(places, decimalPlaces(x))
		}
	}
	more := places > agateMaxPlaces
	places = min(places, agateMaxPlaces)
	return func(s string) string {
		x, ok := new(big.Rat).SetString(s)
		if !ok {
			return s
		}
		out := groupedDecimal(x, places)
		if more {
			out += "…"
		}
		return out
	}
}

// decimalPlaces is how many digits x has after the point (x is a
// decimal, so the count ends; capped at 30 in case it is not).
func decimalPlaces(x *big.Rat) int {
	y := new(big.Rat).Set(x)
	ten := big.NewRat(10, 1)
	for n := 0; n < 30; n++ {
		if y.IsInt() {
			return n
		}
		y.Mul(y, ten)
	}
	return 30
}

// groupedDecimal is x rounded half to even to places digits, its whole
// part grouped by threes with commas ("-1,234.50").
func groupedDecimal(x *big.Rat, places int) string {
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(places)), nil)
	num := new(big.Int).Mul(x.Num(), scale)
	neg := num.Sign() < 0
	num.Abs(num)
	q, r := new(big.Int).QuoRem(num, x.Denom(), new(big.Int))
	switch r.Lsh(r, 1).Cmp(x.Denom()) {
	case 1:
		q.Add(q, big.NewInt(1))
	case 0:
		if q.Bit(0) == 1 {
			q.Add(q, big.NewInt(1))
		}
	}
	digits := q.String()
	if len(digits) <= places {
		digits = strings.Repeat("0", places-len(digits)+1) + digits
	}
	whole, frac := digits[:len(digits)-places], digits[len(digits)-places:]
	var b strings.Builder
	if neg { // babel takes the sign before rounding: -0.0001 is "-0.000"
		b.WriteString("-")
	}
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(",")
		}
		b.WriteRune(d)
	}
	if places > 0 {
		b.WriteString("." + frac)
	}
	return b.String()
}
