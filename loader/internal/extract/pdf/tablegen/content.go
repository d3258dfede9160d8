package tablegen

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Word lists for statistical-report style tables and the prose around
// them. Only ASCII: the core fonts are written in cp1252.
var (
	stubWords = []string{
		"Total", "population", "households", "Agriculture", "forestry", "fishing", "Manufacturing",
		"Construction", "Wholesale", "retail", "trade", "Transport", "storage", "Public", "administration",
		"Education", "Health", "social", "work", "Other", "services", "Employees", "self-employed",
		"Northern", "Southern", "Eastern", "Western", "Central", "region", "urban", "rural", "areas",
		"Persons", "aged", "under", "years", "and", "over", "Married", "Single", "Widowed", "Divorced",
		"Exports", "Imports", "goods", "Net", "income", "Current", "account", "balance", "Capital",
		"expenditure", "Operating", "costs", "Revenue", "grants", "Loans", "advances", "Interest",
		"payments", "Electricity", "gas", "water", "supply", "Mining", "quarrying", "Hotels", "restaurants",
	}
	groupLabels = []string{"Region", "Sex", "Age group", "Industry", "Type of area", "Sector", "Household size", "Activity"}
	places      = []string{"Austria", "Belgium", "Denmark", "Finland", "France", "Germany", "Greece", "Ireland",
		"Italy", "Luxembourg", "Netherlands", "Portugal", "Spain", "Sweden", "Norway", "Poland", "Hungary"}
	headWords = []string{"Number", "of", "persons", "Percent", "Change", "Share", "Rate", "Average", "annual",
		"growth", "Median", "income", "Employed", "Unemployed", "Value", "Amount", "Estimate", "Margin", "error",
		"Males", "Females", "Total", "Budget", "Actual", "Difference", "Index", "Units", "sold", "Price"}
	textWords = []string{"yes", "no", "pending", "approved", "under review", "not applicable", "see note",
		"quarterly", "monthly", "annual", "high", "low", "medium", "completed", "planned", "ongoing",
		"funded by the regional authority", "shared with neighbouring districts", "transferred in 2019",
		"reported late", "estimated from survey data", "provisional figure"}
	proseWords = strings.Fields(`the survey shows that the number of households in most regions grew
		over the period while the share of persons living alone rose slightly in urban areas these figures
		are based on the annual labour force survey and on administrative registers of the member states
		estimates for the latest year are provisional and may be revised when final data become available
		differences between totals and the sum of components are due to rounding the methodology is
		described in the annex and in the quality report published with this release`)
	notes = []string{"Source: national statistical offices, annual survey.", "Note: figures may not add up to totals due to rounding.",
		"(1) Provisional data.", "(2) Break in series.", "Data for the latest year are estimates.", "p = provisional; e = estimated."}
)

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// phrase is n words from ws, the first capitalised.
func phrase(r *rand.Rand, ws []string, n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = pick(r, ws)
	}
	s := strings.Join(parts, " ")
	return strings.ToUpper(s[:1]) + s[1:]
}

// sentence is prose of about n words ending with a full stop.
func sentence(r *rand.Rand, n int) string {
	start := r.IntN(len(proseWords))
	parts := make([]string, n)
	for i := range parts {
		parts[i] = proseWords[(start+i)%len(proseWords)]
	}
	s := strings.Join(parts, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// numKind is how a number column writes its values.
type numKind int

const (
	numInt numKind = iota
	numDec
	numPct
	numMoney
	numYear
)

// number is one value of a number column; a few are placeholders.
func number(r *rand.Rand, k numKind, mag int) string {
	if r.IntN(25) == 0 {
		return pick(r, []string{"-", "..", "n/a", ":"})
	}
	switch k {
	case numDec:
		return fmt.Sprintf("%.1f", r.Float64()*float64(mag)/10)
	case numPct:
		return fmt.Sprintf("%.1f%%", r.Float64()*100)
	case numMoney:
		return "$" + commas(r.IntN(mag*10)+1)
	case numYear:
		return fmt.Sprint(1990 + r.IntN(35))
	}
	v := commas(r.IntN(mag) + 1)
	if r.IntN(12) == 0 {
		v = "-" + v
	}
	return v
}

// margin is a value's margin of error, as a survey table prints it in
// parentheses under or after the value: a percentage's in points.
func margin(r *rand.Rand, v string) string {
	if strings.HasSuffix(v, "%") {
		return fmt.Sprintf("%.1f", 0.1+r.Float64()*4)
	}
	return fmt.Sprintf("+/-%.1f", 0.1+r.Float64()*9)
}

// commas writes n with thousands separators.
func commas(n int) string { return english.Sprintf("%d", n) }

var english = message.NewPrinter(language.English)

// decorate sets, on some tables, the marks statistical and financial
// tables put on their values: footnote marks after numbers ("12.3*",
// "45.1 (p)") and row labels ("Germany (1)"), negatives in parentheses
// ("(1,234)"), and a currency sign set apart from the amount ("$ 1,234").
// It draws from a stream of its own (d), so a table left plain is the
// table the seed gave before these marks existed; a marked one is
// measured with its marks.
func decorate(d *rand.Rand, s *spec) *spec {
	foot, accounts, apart := d.IntN(4) == 0, d.IntN(4) == 0, d.IntN(3) == 0
	if !foot && !accounts && !apart {
		return s
	}
	for i, row := range s.body {
		for j, v := range row {
			c := s.cols[j]
			switch {
			case v == "" || placeholder(v) || c.se:
			case j == 0 && foot && hasValues(row) && d.IntN(8) == 0:
				row[j] = v + pick(d, []string{" (1)", " (2)", "(1)", "*"})
			case c.kind != numCol || c.num == numYear:
			case accounts && strings.HasPrefix(v, "-"):
				row[j] = "(" + v[1:] + ")"
			case apart && strings.HasPrefix(v, "$"):
				row[j] = "$ " + v[1:]
			case foot && d.IntN(6) == 0:
				row[j] = v + pick(d, []string{"*", " (p)", " (e)", "(1)"})
			}
		}
		if accounts && i%3 == 2 {
			// accounts show more negatives than a survey table
			for j := 1; j < len(row); j++ {
				if c := s.cols[j]; c.kind == numCol && c.num == numInt && !placeholder(row[j]) && row[j] != "" && !strings.HasPrefix(row[j], "(") {
					row[j] = "(" + strings.TrimPrefix(row[j], "-") + ")"
				}
			}
		}
	}
	return s
}

// hasValues: the row has a cell besides its label (not a group label).
func hasValues(row []string) bool {
	for _, v := range row[1:] {
		if v != "" {
			return true
		}
	}
	return false
}

// placeholder: a value standing for a missing number.
func placeholder(v string) bool {
	switch v {
	case "-", "..", "n/a", ":":
		return true
	}
	return false
}
