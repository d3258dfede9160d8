package executor

import (
	"regexp"
	"strconv"
	"strings"
)

// contractKind is the kind of a DuckDB type that dbt-duckdb's contract
// check compares: dbt formats each column as its name and the type code
// of DuckDB's Python cursor.description, which names a kind, not a type
// (GetTypeToPython in duckdb's pyresult.cpp: every integer, float and
// decimal is NUMBER, every timestamp DATETIME, ...). Types of other kinds
// (ENUM, UNION, fixed ARRAY) are their own kind there, as here.
func contractKind(t string) string {
	u := strings.ToUpper(strings.TrimSpace(t))
	switch {
	case strings.HasSuffix(u, "[]"):
		return "list"
	case strings.HasPrefix(u, "STRUCT(") || strings.HasPrefix(u, "MAP("):
		return "dict"
	case strings.HasPrefix(u, "DECIMAL"):
		return "NUMBER"
	case strings.HasPrefix(u, "TIMESTAMP"):
		return "DATETIME"
	case strings.HasPrefix(u, "TIME"):
		return "Time"
	}
	if _, ok := intBits[u]; ok {
		return "NUMBER"
	}
	switch u {
	case "FLOAT", "DOUBLE":
		return "NUMBER"
	case "BOOLEAN":
		return "bool"
	case "VARCHAR":
		return "STRING"
	case "BLOB", "BIT":
		return "BINARY"
	case "DATE":
		return "Date"
	case "INTERVAL":
		return "TIMEDELTA"
	}
	return u
}

// intBits: DuckDB's integer types, their width (negative: unsigned).
var intBits = map[string]int{
	"TINYINT": 8, "SMALLINT": 16, "INTEGER": 32, "BIGINT": 64, "HUGEINT": 128,
	"UTINYINT": -8, "USMALLINT": -16, "UINTEGER": -32, "UBIGINT": -64, "UHUGEINT": -128,
}

// intDigits: the decimal digits an integer type of that width can need.
var intDigits = map[int]int{8: 3, 16: 5, 32: 10, 64: 20, 128: 39}

var decimalRe = regexp.MustCompile(`^DECIMAL\((\d+),\s*(\d+)\)$`)

func decimalOf(t string) (p, s int, ok bool) {
	m := decimalRe.FindStringSubmatch(t)
	if m == nil {
		return 0, 0, false
	}
	p, _ = strconv.Atoi(m[1])
	s, _ = strconv.Atoi(m[2])
	return p, s, true
}

// castKeeps: casting every value of type have to want gives the same
// value back (a wider integer, DOUBLE from FLOAT or a small integer, a
// DECIMAL with room for the digits, TIMESTAMP from seconds or ms).
func castKeeps(have, want string) bool {
	h, w := strings.ToUpper(have), strings.ToUpper(want)
	if h == w {
		return true
	}
	hb, hInt := intBits[h]
	wb, wInt := intBits[w]
	abs := func(b int) int {
		if b < 0 {
			return -b
		}
		return b
	}
	switch {
	case hInt && wInt:
		if wb < 0 { // unsigned target: only from a narrower-or-equal unsigned
			return hb < 0 && -hb <= -wb
		}
		if hb < 0 {
			return -hb < wb
		}
		return hb <= wb
	case hInt && w == "DOUBLE":
		return abs(hb) <= 32
	case hInt && w == "FLOAT":
		return abs(hb) <= 16
	case h == "FLOAT" && w == "DOUBLE":
		return true
	case hInt:
		if p, s, ok := decimalOf(w); ok {
			return p-s >= intDigits[abs(hb)]
		}
	case strings.HasPrefix(h, "DECIMAL"):
		hp, hs, ok := decimalOf(h)
		if !ok {
			return false
		}
		if p, s, ok := decimalOf(w); ok {
			return s >= hs && p-s >= hp-hs
		}
		return w == "DOUBLE" && hp <= 15
	case w == "TIMESTAMP":
		return h == "TIMESTAMP_S" || h == "TIMESTAMP_MS"
	}
	return false
}
