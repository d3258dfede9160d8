package office

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestDump(t *testing.T) {
	p := os.Getenv("DUMP")
	if p == "" {
		t.Skip()
	}
	res, err := extractByExt(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("META %+v\nWARN %v\n", res.Metadata, res.Warnings)
	for _, e := range res.Elements {
		s := e.Text
		if len(s) > 150 {
			s = s[:150] + "…"
		}
		fmt.Printf("p%d %s L%d sec=%q tbl=%d: %q\n", e.Page, e.Category, e.Level, trunc(e.Section), e.TableSeq, s)
	}
	for _, tb := range res.Tables {
		fmt.Printf("TABLE p%d header=%q rows=%d first=%q\n", tb.Page, tb.Header, len(tb.Rows), first(tb.Rows))
	}
}

func trunc(s string) string {
	if len(s) > 30 {
		return s[:30]
	}
	return s
}
func first(r [][]string) string {
	if len(r) == 0 {
		return ""
	}
	return strings.Join(r[0], "|")
}
