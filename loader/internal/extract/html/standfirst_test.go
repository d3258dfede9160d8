package html

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestStandfirstFromTheDescription: a standfirst in the page's header,
// outside the article node readability picks, that the meta description
// repeats is put back at the main content's head; the same block without
// such a description stays out, and a description the kept blocks
// already repeat adds nothing.
func TestStandfirstFromTheDescription(t *testing.T) {
	dek := "Road repairs, school funding and new bus lines for the north district: what the vote means for residents"
	page := func(desc string) []byte {
		var sb strings.Builder
		sb.WriteString(`<html><head><title>Budget approved</title>`)
		if desc != "" {
			sb.WriteString(`<meta name="description" content="` + desc + `">`)
		}
		sb.WriteString(`</head><body><nav><a href="/">Home</a> <a href="/news">News</a></nav>`)
		sb.WriteString(`<div class="hero"><h1>Budget approved</h1><p class="dek">` + dek + `</p></div>`)
		sb.WriteString(`<div class="layout"><aside><a href="/a">Most read</a></aside><div class="story-body"><article>`)
		for _, p := range storyParagraphs {
			sb.WriteString("<p>" + p + "</p>")
		}
		sb.WriteString(`</article></div></div><footer>Contact us</footer></body></html>`)
		return []byte(sb.String())
	}
	res := extractData(t, "news.html", page(dek+"."))
	if res.Metadata.Extra["content_scope"] != "main_content" {
		t.Fatalf("content_scope %q: the page is not judged as an article", res.Metadata.Extra["content_scope"])
	}
	text := res.Pages[0].Text
	if !strings.HasPrefix(text, dek) || strings.Count(text, dek) != 1 {
		t.Errorf("the standfirst the description repeats is not the text's head, once: %.200q", text)
	}
	if len(res.Elements) == 0 || res.Elements[0].Category != document.NarrativeText {
		t.Errorf("first element %+v, want the standfirst as narrative text", res.Elements[:1])
	}
	if r := extractData(t, "news.html", page("")); strings.Contains(r.Pages[0].Text, dek) {
		t.Errorf("without a description the header's standfirst came in: %.200q %v", r.Pages[0].Text, r.Metadata.Extra)
	}
	if text := extractData(t, "news.html", page("Something else entirely about the city's parks and its summer concerts in June")).Pages[0].Text; strings.Contains(text, dek) {
		t.Errorf("a description that does not repeat it brought the standfirst in: %.200q", text)
	}
}

// TestStandfirstNotTwice: when the kept blocks already hold the
// description's repeat, nothing is added; nor when the kept blocks' first
// is not among the page's.
func TestStandfirstNotTwice(t *testing.T) {
	dek := "Road repairs, school funding and new bus lines for the north district: what the vote means"
	body := "The council approved the new budget after a long debate about road repairs and school funding"
	page := []block{{text: dek}, {text: "By Jane Roe"}, {text: body}}
	if got := withStandfirst([]block{{text: dek}, {text: body}}, page, dek); len(got) != 2 {
		t.Errorf("kept %q: the standfirst added twice", blockTexts(got))
	}
	if got := withStandfirst([]block{{text: body}}, page, dek); strings.Join(blockTexts(got), "|") != dek+"|"+body {
		t.Errorf("kept %q, want the standfirst then the body", blockTexts(got))
	}
	if got := withStandfirst([]block{{text: "elsewhere"}}, page, dek); len(got) != 1 {
		t.Errorf("kept %q: a standfirst added to blocks not on the page", blockTexts(got))
	}
}

// storyParagraphs is an article's body, for pages readability scores.
var storyParagraphs = []string{
	"The council approved the new budget on Tuesday evening after a debate that lasted more than four hours, with twelve votes in favour and seven against.",
	"Most of the money goes to road repairs: the main street, the bridge over the canal and the roads around the old market will be rebuilt over the next two years.",
	"Schools in the north district receive a larger share than last year, which the teachers' union had asked for since the spring, when two classrooms had to close.",
	"Three new bus lines will link the north district to the station and the hospital, and the buses will run every ten minutes at peak hours from September.",
	"The opposition said the plan spends too much on roads and too little on housing, and asked for a second vote on the housing fund in the autumn session.",
	"The mayor answered that the housing fund will be reviewed in October, once the region has said how much it will give towards the new flats by the river.",
}

// TestStandfirstLengthAcrossScripts: a standfirst must be as long in
// Chinese as in English. A line of a few words the description repeats
// (here a short headline) is no standfirst in either; a real one is put
// back in both. Each Han character is a word for the trigram checks, but
// a Chinese word is about two characters: counted one word a character, a
// ten-character headline (five words) passed the eight-word minimum.
// Split at every vowel sign (before html/19), a six-word Hindi headline
// counted ten words and a five-word Khmer one over twenty.
func TestStandfirstLengthAcrossScripts(t *testing.T) {
	for _, c := range []struct{ lang, head, dek, byline, body string }{
		{"English", "City council passes the new budget",
			"Road repairs, school funding and new bus lines for the north district: what the vote means for residents",
			"By Jane Roe", storyParagraphs[0]},
		{"Chinese", "市议会通过新年度预算",
			"道路维修、学校经费和北区新公交线路：这次投票对北区居民意味着什么",
			"记者 张三", "市议会周二晚上在长达四个多小时的辩论后通过了新预算，十二票赞成，七票反对。"},
		{"Hindi", "नगर परिषद ने नया बजट पारित किया",
			"सड़कों की मरम्मत, स्कूलों के लिए पैसा और उत्तरी जिले की नई बस लाइनें: इस मतदान का निवासियों के लिए क्या अर्थ है",
			"संवाददाता राम शर्मा", "परिषद ने मंगलवार रात चार घंटे से अधिक की बहस के बाद नया बजट पारित किया, बारह मत पक्ष में और सात विरोध में पड़े।"},
		{"Khmer", "ក្រុមប្រឹក្សាក្រុងអនុម័តថវិកាថ្មី",
			"ការជួសជុលផ្លូវ មូលនិធិសាលារៀន និងខ្សែឡានក្រុងថ្មីសម្រាប់ស្រុកខាងជើង៖ អ្វីដែលការបោះឆ្នោតនេះមានន័យសម្រាប់អ្នករស់នៅ",
			"ដោយ សុខ ចាន់", "ក្រុមប្រឹក្សាបានអនុម័តថវិកាថ្មីកាលពីយប់ថ្ងៃអង្គារ បន្ទាប់ពីការជជែកវែកញែកជាងបួនម៉ោង។"},
	} {
		desc := c.head + ": " + c.dek
		kept := []block{{text: c.body}}
		got := withStandfirst(kept, []block{{text: c.head}, {text: c.byline}, {text: c.body}}, desc)
		if len(got) != 1 {
			t.Errorf("%s: a %d-character headline the description repeats was taken for a standfirst: %q", c.lang, len([]rune(c.head)), blockTexts(got))
		}
		got = withStandfirst(kept, []block{{text: c.head}, {text: c.dek}, {text: c.byline}, {text: c.body}}, desc)
		if strings.Join(blockTexts(got), "|") != c.dek+"|"+c.body {
			t.Errorf("%s: kept %q, want the standfirst then the body", c.lang, blockTexts(got))
		}
	}
}

// TestStandfirstTheDescriptionShortens: a description is often the
// standfirst cut short (here a clause left out and the end dropped): the
// block above the article that holds most of the description is put back
// at the head. A paragraph of the body that holds the description as well
// does not count as the standfirst already kept.
func TestStandfirstTheDescriptionShortens(t *testing.T) {
	dek := "Road repairs, school funding and new bus lines for the north district: what the vote on Tuesday means for residents and for the city's finances over the next two years"
	desc := "Road repairs, school funding and new bus lines for the north district: what the vote means for residents."
	body := "The council approved the new budget on Tuesday: road repairs, school funding and new bus lines for the north district, what the vote means for residents, were debated for four hours."
	page := []block{{text: dek}, {text: "By Jane Roe"}, {text: body}, {text: storyParagraphs[1]}}
	got := withStandfirst([]block{{text: body}, {text: storyParagraphs[1]}}, page, desc)
	if len(got) != 3 || got[0].text != dek {
		t.Errorf("kept %q, want the standfirst the description shortens at the head", blockTexts(got))
	}
	other := "Something else entirely about the city's parks and its summer concerts in June and July"
	if got := withStandfirst([]block{{text: body}}, page, other); len(got) != 1 {
		t.Errorf("kept %q: a standfirst came in for a description it does not hold", blockTexts(got))
	}
}

// TestStandfirstSoftHyphens: a page hyphenated with &shy; hyphenates its
// meta description too; the soft hyphens leave the description as they
// leave the text (html/23 dropped them from text only, and the words of
// the description, cut at each, no longer repeated the standfirst's).
func TestStandfirstSoftHyphens(t *testing.T) {
	dek := "Stra&shy;ßen&shy;re&shy;pa&shy;ra&shy;tu&shy;ren, Schul&shy;geld und neue Bus&shy;li&shy;ni&shy;en für den Nord&shy;be&shy;zirk: was die Ab&shy;stim&shy;mung für die An&shy;woh&shy;ner be&shy;deu&shy;tet"
	plain := strings.ReplaceAll(dek, "&shy;", "")
	var sb strings.Builder
	sb.WriteString(`<html><head><title>Haushalt beschlossen</title><meta name="description" content="` + dek + `."></head><body><nav><a href="/">Start</a> <a href="/news">Nachrichten</a></nav>`)
	sb.WriteString(`<div class="hero"><h1>Haushalt beschlossen</h1><p class="dek">` + dek + `</p></div>`)
	sb.WriteString(`<div class="layout"><aside><a href="/a">Meistgelesen</a></aside><div class="story-body"><article>`)
	for _, p := range storyParagraphs {
		sb.WriteString("<p>" + p + "</p>")
	}
	sb.WriteString(`</article></div></div><footer>Kontakt</footer></body></html>`)
	res := extractData(t, "news.html", []byte(sb.String()))
	if d := res.Metadata.Extra["description"]; d != plain+"." {
		t.Errorf("description %q, want it without soft hyphens", d)
	}
	if text := res.Pages[0].Text; !strings.HasPrefix(text, plain) {
		t.Errorf("the standfirst the description repeats is not the text's head: %.200q", text)
	}
}
