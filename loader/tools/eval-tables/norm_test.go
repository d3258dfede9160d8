package main

import "testing"

// Cell texts compare with white space folded, and none between two
// characters of Chinese or Japanese text: tabula's expectation for
// twotables.pdf keeps a wrapped cell's line break ("持分法の適用範囲\rの変動"),
// which is no space in that text.
func TestNormDropsLineBreaksInsideChineseAndJapanese(t *testing.T) {
	for in, want := range map[string]string{
		"持分法の適用範囲\rの変動":           "持分法の適用範囲の変動",
		"扣除非经常性损 益的净利润":           "扣除非经常性损益的净利润",
		"  Total of the\n first ": "Total of the first",
		"전월 이용금액\n제외 대상":          "전월 이용금액 제외 대상",
		"清理固定资产 HK 股份":            "清理固定资产 HK 股份",
	} {
		if got := norm(in); got != want {
			t.Errorf("norm(%q) = %q, want %q", in, got, want)
		}
	}
}
