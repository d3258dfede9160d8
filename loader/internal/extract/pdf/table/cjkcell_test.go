package table

import (
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// A cell's text wrapped over lines joins them with a space, except
// between two characters of Chinese or Japanese text, which sets no
// spaces between words (issue-67-example.pdf: "归属于上市公司股东的扣除非经常性损"
// over "益的净利润（元）" read "...损 益的..."). Korean sets spaces, and
// so does Latin text next to Han.
func TestWrappedChineseCellJoinsWithoutASpace(t *testing.T) {
	for _, c := range []struct {
		lines [2]string
		want  string
	}{
		{[2]string{"归属于上市公司股东的扣除非经常性损", "益的净利润（元）"}, "归属于上市公司股东的扣除非经常性损益的净利润（元）"},
		{[2]string{"持分法の適用範囲", "の変動"}, "持分法の適用範囲の変動"},
		{[2]string{"泰达宏利基金－", "民生银行－泰达"}, "泰达宏利基金－民生银行－泰达"},
		{[2]string{"전월 이용금액", "제외 대상"}, "전월 이용금액 제외 대상"},
		{[2]string{"Total of the", "first quarter"}, "Total of the first quarter"},
		{[2]string{"清理固定资产", "HK 股份"}, "清理固定资产 HK 股份"},
	} {
		var ws []*word
		for i, l := range c.lines {
			y := 100 + 12*float64(i)
			ws = append(ws, &word{bb: document.BBox{X0: 72, Y0: y, X1: 72 + 10*float64(len([]rune(l))), Y1: y + 10}, text: l, size: 10})
		}
		if got := cellText(ws); got != c.want {
			t.Errorf("cellText(%q) = %q, want %q", c.lines, got, c.want)
		}
	}
	for _, r := range "损益の変カ，（" {
		if !UnspacedRune(r) {
			t.Errorf("%q: want a character written without spaces", r)
		}
	}
	for _, r := range "이aZ1 " {
		if UnspacedRune(r) {
			t.Errorf("%q: want a character of text set with spaces", r)
		}
	}
}
