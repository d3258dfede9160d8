package embed

import (
	"database/sql"
	"os"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	_ "github.com/duckdb/duckdb-go/v2"
)

func TestZZSQLTokenize(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, f := range []string{"mixed/language-docs/UDHR_first_article_all.txt", "mixed/norwich-city.txt", "mixed/book-war-and-peace-1p.txt", "mixed/language-docs/eng_afr_spa.txt", "scans/p01.gt.txt"} {
		b, err := os.ReadFile("/work/shared/corpus/" + f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(b), "\n")...)
	}
	lines = append(lines, "Größe ÉCOLE naïve İstanbul ΣΊΣΥΦΟΣ e\u0301te हिन्दी 東京都 2024年 snake_case ½ x²")
	bad, n := 0, 0
	if os.Getenv("NFKC") != "" {
		for i := range lines {
			lines[i] = norm.NFKC.String(lines[i])
		}
	}
	for _, l := range lines {
		var arr any
		if err := db.QueryRow("select "+TokenizeSQL("?"), l).Scan(&arr); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, x := range arr.([]any) {
			got = append(got, x.(string))
		}
		want := Tokenize(l)
		n++
		if !reflect.DeepEqual(got, want) {
			bad++
			if bad < 15 {
				t.Logf("differ:\n sql %q\n go  %q", got, want)
			}
		}
	}
	t.Logf("%d/%d lines differ", bad, n)
}
