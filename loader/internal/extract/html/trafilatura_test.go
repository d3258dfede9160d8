package html

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	trafilatura "github.com/markusmobius/go-trafilatura"
	_ "github.com/markusmobius/go-trafilatura/withmetadata" // TestTrafilaturaContentOnly reads metadata
	"golang.org/x/net/html"
)

// TestTrafilaturaLinearInParagraphs: go-trafilatura's text of a page of
// many paragraphs allocates in proportion to the page, not to its square
// (the fork's extractContent joined every <p>'s text with +=: a page of
// 2 MB of paragraphs took 16 s, one of 20 MB over loader.timeout, where
// readability alone had landed it). Measured in bytes allocated, not time.
func TestTrafilaturaLinearInParagraphs(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><head><title>Report</title></head><body><nav>menu</nav><article>")
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "<p>Paragraph %d of the long report talks about the committee and its members, who met on many days to decide things.</p>\n", i)
	}
	b.WriteString("</article></body></html>")
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	text, _, failed := trafilaturaText(doc, nil)
	if failed != "" {
		t.Fatalf("trafilatura failed: %s", failed)
	}
	runtime.ReadMemStats(&after)
	if !strings.Contains(text, "Paragraph 4000 of the long report") {
		t.Fatalf("trafilatura's text lacks the paragraphs (%d bytes)", len(text))
	}
	// linear: ~90 MiB here; += over ~8,000 paragraphs: ~4 GiB
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<30 {
		t.Errorf("trafilatura allocated %d MiB for a 1 MiB page: quadratic in its paragraphs", alloc>>20)
	}
}

// TestTrafilaturaContentOnly: the fork's ContentOnly (docket reads none of
// trafilatura's metadata) skips the page's metadata and the language
// classification, half the library's CPU on corpus/html-main, and the
// extracted text stays the same.
func TestTrafilaturaContentOnly(t *testing.T) {
	page := strings.Replace(twoBoxArticle(), "<head>", `<head><meta name="author" content="Jane Roe">`, 1)
	for _, fallback := range []bool{false, true} {
		var texts [2]string
		for i, only := range []bool{false, true} {
			doc, err := html.Parse(strings.NewReader(page))
			if err != nil {
				t.Fatal(err)
			}
			opts := trafilatura.Options{ExcludeComments: true, ContentOnly: only, EnableFallback: fallback}
			if fallback {
				cand := &html.Node{Type: html.ElementNode, Data: "div"}
				opts.FallbackCandidates = &trafilatura.FallbackCandidates{Readability: cand, Distiller: cand}
			}
			res, err := trafilatura.ExtractDocument(doc, opts)
			if err != nil {
				t.Fatal(err)
			}
			texts[i] = res.ContentText
			switch md := res.Metadata; {
			case only && (md.Title != "" || md.Author != "" || md.Language != ""):
				t.Errorf("ContentOnly: metadata read anyway: %+v", md)
			case !only && (md.Title != "Council approves budget" || md.Author != "Jane Roe" || md.Language != "en"):
				t.Errorf("metadata title %q author %q language %q", md.Title, md.Author, md.Language)
			}
		}
		if texts[0] == "" || texts[0] != texts[1] {
			t.Errorf("fallback %v: text with ContentOnly %q, without %q", fallback, texts[1], texts[0])
		}
	}
}

// shortNewsPage is a short news page: a headline, paras, a related-news
// list and a footer, in Chinese or in English (the same page translated).
func shortNewsPage(zh bool) string {
	nav := []string{"Home", "News", "Business", "Sport", "Entertainment", "Technology", "Cars", "Property", "Education", "Travel"}
	title, related, footer := "New metro lines to open next year", "Related news", "Copyright The Daily Contact us Advertising"
	paras := []string{
		"The city today released a new public transport plan and decided to open three new metro lines next spring to ease traffic in the city centre.",
		"The head of the city transport bureau said the new lines will link the eastern housing estates with the western industrial park, carrying an expected two hundred thousand passengers a day.",
	}
	links := []string{"Taxi fares in the city to change next month", "Motorways free of tolls over the holiday", "New airport terminal opens for service", "Every bus stop to get an electronic screen", "Shared bicycle parking areas redrawn", "City road works begin across the city"}
	if zh {
		nav = []string{"首页", "新闻", "财经", "体育", "娱乐", "科技", "汽车", "房产", "教育", "旅游"}
		title, related, footer = "新地铁线路明年开通", "相关新闻", "版权所有 本报社 联系我们 广告服务"
		paras = []string{
			"本市今天发布了新的公共交通计划，决定在明年春季开通三条新的地铁线路，以缓解市中心的交通压力。",
			"市交通局负责人表示，新线路将连接城市东部的住宅区和西部的工业园区，预计每天可以运送乘客二十万人次。",
		}
		links = []string{"本市出租车价格将于下月调整", "高速公路春节期间免费通行", "机场新航站楼正式投入使用", "公交车站将全部安装电子屏幕", "共享单车停放区域重新规划", "城市道路改造工程全面启动"}
	}
	var sb strings.Builder
	sb.WriteString(`<html><head><title>` + title + `</title></head><body><div class="nav"><ul>`)
	for _, l := range nav {
		sb.WriteString(`<li><a href="/x">` + l + `</a></li>`)
	}
	sb.WriteString(`</ul></div><div class="main"><div class="article"><h1>` + title + `</h1>`)
	for _, p := range paras {
		sb.WriteString("<p>" + p + "</p>")
	}
	sb.WriteString(`</div><div class="related"><h3>` + related + `</h3><ul>`)
	for _, l := range links {
		sb.WriteString(`<li><a href="/y">` + l + `</a></li>`)
	}
	sb.WriteString(`</ul></div></div><div class="footer"><p>` + footer + `</p></div></body></html>`)
	return sb.String()
}

// TestTrafilaturaRescueGateWeighsScripts: go-trafilatura takes the whole
// page's text (its baseline rescue) when its own is under MinExtractedSize
// (250) characters; a Chinese page is a third as many characters as the
// same page in English, so the fork weighs a Han character three, a kana or
// Hangul character two there (as docket's textWidth). Before, a short
// Chinese news page, 96 characters of story (an English story of ~270),
// was rescued from the whole page, and docket widened readability's choice
// to it: the related-news list landed with the story, where the English
// page landed the story alone.
func TestTrafilaturaRescueGateWeighsScripts(t *testing.T) {
	for _, zh := range []bool{false, true} {
		res := extractData(t, "news.html", []byte(shortNewsPage(zh)))
		text := res.Pages[0].Text
		if strings.Contains(text, "相关新闻") || strings.Contains(text, "出租车") || strings.Contains(text, "Related news") || strings.Contains(text, "Taxi fares") {
			t.Errorf("zh %v: the related-news list landed with the story (content_by %s):\n%s", zh, res.Metadata.Extra["content_by"], text)
		}
		if !strings.Contains(text, "二十万人次") && !strings.Contains(text, "two hundred thousand") {
			t.Errorf("zh %v: the story's second paragraph is lost:\n%s", zh, text)
		}
	}
}

// linkedParagraphPage is a news article whose second paragraph, one
// sentence, links two agency names, in Chinese or in English (the same
// page translated).
func linkedParagraphPage(zh bool) (page, linked string) {
	title := "Council approves new metro plan"
	paras := []string{
		"The city council today approved a new public transport plan and decided to open three new metro lines next spring to ease traffic in the city centre.",
		"The head of the city transport bureau said the new lines will link the eastern housing estates with the western industrial park, carrying an expected two hundred thousand passengers a day.",
		"Construction of the first line began last year, and the tunnels under the river are now finished; the stations are being fitted out and trains will be tested over the summer.",
		"Fares will stay the same as on the existing lines, and passengers will be able to change between the new and the old lines at four stations without buying a new ticket.",
	}
	linked = "According to Xinhua and the People's Daily, the vote was unanimous."
	html := `According to <a href="/a">Xinhua</a> and the <a href="/b">People's Daily</a>, the vote was unanimous.`
	if zh {
		title = "市议会批准新地铁计划"
		paras = []string{
			"市议会今天批准了新的公共交通计划，决定在明年春季开通三条新的地铁线路，以缓解市中心的交通压力。",
			"市交通局负责人表示，新线路将连接城市东部的住宅区和西部的工业园区，预计每天可以运送乘客二十万人次。",
			"第一条线路的建设去年已经开始，河底隧道现已完工，车站正在装修，列车将在夏季进行测试。",
			"新线路的票价将与现有线路相同，乘客可以在四个车站免费换乘新旧线路，无需另行购票。",
		}
		linked = "据新华社和人民日报报道，投票全票通过。"
		html = `据<a href="/a">新华社</a>和<a href="/b">人民日报</a>报道，投票全票通过。`
	}
	var sb strings.Builder
	sb.WriteString(`<html><head><title>` + title + `</title></head><body><div class="nav"><a href="/">Home</a></div><article><h1>` + title + `</h1>`)
	sb.WriteString("<p>" + paras[0] + "</p><p>" + html + "</p>")
	for _, p := range paras[1:] {
		sb.WriteString("<p>" + p + "</p>")
	}
	sb.WriteString(`</article><div class="footer"><p>Copyright</p></div></body></html>`)
	return sb.String(), linked
}

// TestTrafilaturaParagraphLinkGateWeighsScripts: go-trafilatura tests a
// paragraph of under 30 characters (60 when last) for its links and drops
// it when most of them are short (under 10 characters); the fork weighs
// the paragraph's length as the rescue gate does (TextWidth). Before, a
// Chinese sentence of 19 characters linking two agency names (its English
// twin 68 characters, never tested) left trafilatura's text, and docket
// dropped it from the article as a long block trafilatura left out. On
// twin pages built from Debian's .mo translations (a short message with
// two links among long ones) the linked paragraph left trafilatura's text
// on 200 of 200 Chinese, Japanese and Korean pages and on 1-9 of 200
// English twins; weighed, on 1 (zh_CN), 8 (zh_TW), 4 (ja) and 43 (ko).
func TestTrafilaturaParagraphLinkGateWeighsScripts(t *testing.T) {
	for _, zh := range []bool{false, true} {
		page, linked := linkedParagraphPage(zh)
		res := extractData(t, "news.html", []byte(page))
		if text := res.Pages[0].Text; !strings.Contains(text, linked) {
			t.Errorf("zh %v: the linked paragraph %q is lost (content_by %s):\n%s", zh, linked, res.Metadata.Extra["content_by"], text)
		}
	}
}
