package html

import (
	"strings"
	"testing"
)

// budgetSentence is one sentence in several scripts (translated for this
// test): a length threshold must find about as many words in each as in
// the English.
var budgetSentence = []struct{ lang, text string }{
	{"English", "The city council approved the new budget on Tuesday evening after a long debate."},
	{"Hindi", "नगर परिषद ने लंबी बहस के बाद मंगलवार शाम को नया बजट पारित किया।"},
	{"Thai", "สภาเมืองอนุมัติงบประมาณใหม่ในเย็นวันอังคารหลังจากการอภิปรายอันยาวนาน"},
	{"Khmer", "ក្រុមប្រឹក្សាក្រុងបានអនុម័តថវិកាថ្មីនៅល្ងាចថ្ងៃអង្គារ បន្ទាប់ពីការជជែកវែកញែកដ៏យូរ។"},
	{"Burmese", "မြို့တော်ကောင်စီသည် ကြာရှည်စွာ ငြင်းခုံပြီးနောက် အင်္ဂါနေ့ညနေတွင် ဘတ်ဂျက်အသစ်ကို အတည်ပြုခဲ့သည်။"},
	{"Korean", "시의회는 긴 논쟁 끝에 화요일 저녁 새 예산안을 통과시켰다."},
	{"Chinese", "市议会在经过长时间辩论后于周二晚上通过了新预算。"},
	{"Japanese", "市議会は長い議論の末、火曜日の夜に新しい予算を可決した。"},
}

// TestWordCountAcrossScripts: the same sentence counts about as many words
// in every script. Split at every vowel sign, Hindi counted twice its
// words and Khmer and Burmese two to three times theirs, so their short
// lines passed the minimums a line in English must meet.
func TestWordCountAcrossScripts(t *testing.T) {
	en := wordCount(budgetSentence[0].text)
	for _, c := range budgetSentence[1:] {
		if n := wordCount(c.text); float64(n) < 0.5*float64(en) || float64(n) > 1.5*float64(en) {
			t.Errorf("%s: %d words, English %d", c.lang, n, en)
		}
	}
	if n := wordCount("コンピューター"); n != 3 {
		t.Errorf("wordCount(コンピューター) = %d, want 3 (seven kana)", n)
	}
	for in, want := range map[string]string{
		"हिन्दी समाचार":           "हिन्दी समाचार",    // the vowel signs stay in their words
		"ภาษาไทย ดี":              "ภ า ษ า ไ ท ย ดี", // a letter with its marks is a word
		"\u2615\ufe0f cafe\u0301": "cafe\u0301",       // written decomposed, the accent in its word; an emoji's variation selector is no word
		"肉をくわえたイヌ dog2":           "肉 を く わ え た イ ヌ dog2",
	} {
		if got := strings.Join(wordsOf(in), " "); got != want {
			t.Errorf("wordsOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestShortChinesePageHasMainContent: a page under minMainPage characters
// is taken whole (no boilerplate to lose), but a Chinese page says in a
// character what English says in three: a news story of some 200 words'
// worth in Chinese was kept whole, the links after it too, where its
// English translation was not.
func TestShortChinesePageHasMainContent(t *testing.T) {
	paras := []string{
		"市议会周二晚上在长达四个多小时的辩论后通过了新预算，十二票赞成，七票反对。",
		"大部分资金将用于道路维修：主街、运河上的桥梁以及老市场周围的道路将在未来两年内重建。",
		"北区的学校今年获得的份额比去年更大，这是教师工会自春天以来一直要求的，当时有两间教室不得不关闭。",
		"三条新的公交线路将把北区与火车站和医院连接起来，从九月起高峰时段每十分钟一班。",
	}
	page := `<html><head><title>市议会通过新预算</title></head><body><nav><a href="/">首页</a> <a href="/news">新闻</a> <a href="/sport">体育</a> <a href="/contact">联系我们</a></nav>` +
		`<article><h1>市议会通过新预算</h1><p>` + strings.Join(paras, "</p><p>") + `</p></article><div class="related"><a href="/a">热门：明星婚礼现场曝光</a> <a href="/b">点击领取优惠券</a></div><footer>版权所有 本地新闻网</footer></body></html>`
	res := extractData(t, "zh.html", []byte(page))
	text := res.Pages[0].Text
	if got := res.Metadata.Extra["content_scope"]; got != "main_content" {
		t.Errorf("content_scope %q, want main_content", got)
	}
	for _, p := range paras {
		if !strings.Contains(text, p) {
			t.Errorf("paragraph lost: %q", p)
		}
	}
	if strings.Contains(text, "明星婚礼") || strings.Contains(text, "优惠券") {
		t.Errorf("the links after the story kept: %q", text)
	}
}
