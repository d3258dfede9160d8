package html

import (
	"fmt"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

const framesetPage = `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Frameset//EN" "http://www.w3.org/TR/html4/frameset.dtd">
<html>
<head><title>Harbour Board minutes</title></head>
<frameset cols="25%,75%">
  <frame src="menu.html" name="menu">
  <frameset rows="20%,80%">
    <frame src="banner.html">
    <frame src="minutes-2024.html" name="main">
  </frameset>
  <noframes>
    <body>
      <h1>Harbour Board</h1>
      <p>This site uses frames. Read the <a href="minutes-2024.html">minutes of the 2024 meetings</a> or the <a href="menu.html">list of meetings</a>.</p>
    </body>
  </noframes>
</frameset>
</html>`

// TestFramesetNoframesParsed: a frameset page lands its <noframes>
// alternative as text and structure, not as markup (the parser reads
// <noframes> as raw text: "<body> <h1>Harbour Board</h1> <p>This site..."
// landed before html/30, review39's LOW), says so in content_scope, names
// its frames in order, and is flagged frameset with a reason naming them.
func TestFramesetNoframesParsed(t *testing.T) {
	res := extractData(t, "frames.html", []byte(framesetPage))
	text := res.Pages[0].Text
	if strings.ContainsAny(text, "<>") {
		t.Errorf("markup landed as text: %q", text)
	}
	want := []el{
		{document.Title, "Harbour Board", 1},
		{document.NarrativeText, "This site uses frames. Read the minutes of the 2024 meetings or the list of meetings.", 0},
	}
	sameEls(t, elements(res), want)
	if got := res.Metadata.Extra["content_scope"]; got != "noframes" {
		t.Errorf("content_scope %q, want noframes", got)
	}
	if got := res.Metadata.Extra["frames"]; got != "menu.html banner.html minutes-2024.html" {
		t.Errorf("frames %q", got)
	}
	if len(res.Reviews) != 1 || res.Reviews[0].Code != document.ReviewFrameset || res.Reviews[0].Page != 0 ||
		!strings.Contains(res.Reviews[0].Message, "(menu.html, banner.html, minutes-2024.html)") {
		t.Errorf("reviews %+v, want one frameset review naming the frames", res.Reviews)
	}
}

// TestNoframesOutsideFramesetSkipped: on a page with a body, <noframes> is
// hidden by browsers; its raw markup landed as text before html/30.
func TestNoframesOutsideFramesetSkipped(t *testing.T) {
	page := `<html><head><title>t</title></head><body><p>The article's one paragraph.</p>
<noframes><p>Your browser does not support frames.</p></noframes></body></html>`
	res := extractData(t, "body.html", []byte(page))
	if got := res.Pages[0].Text; got != "The article's one paragraph." {
		t.Errorf("text %q", got)
	}
	if res.Metadata.Extra["content_scope"] != "whole_page" || res.Flagged() {
		t.Errorf("scope %q, reviews %+v", res.Metadata.Extra["content_scope"], res.Reviews)
	}
}

// TestFramesetWithoutAlternative: a frameset page with no <noframes> says
// so in its review (html/30 said its text was the alternative), and the
// plausibility check's no_text follows; a frame without a source is not
// named.
func TestFramesetWithoutAlternative(t *testing.T) {
	page := `<html><head><title>F</title></head><frameset cols="50%,50%"><frame src="left.html"><frame></frameset></html>`
	res := extractData(t, "bare.html", []byte(page))
	document.Check(res)
	var codes []string
	for _, v := range res.AllReviews() {
		codes = append(codes, v.Code)
	}
	if strings.Join(codes, " ") != "frameset no_text" {
		t.Fatalf("review codes %q, want frameset no_text", codes)
	}
	if m := res.Reviews[0].Message; !strings.Contains(m, "(left.html)") || !strings.Contains(m, "no <noframes> alternative, so no text of its own") {
		t.Errorf("message %q", m)
	}
	if got := res.Metadata.Extra["frames"]; got != "left.html" {
		t.Errorf("frames %q", got)
	}
}

// TestFramesetHostile: review40's two findings on html/30. A <noframes>
// nested past the parser's 512 elements lands its text (the fragment
// parse failed and the alternative was dropped: no_text "the page has no
// visible text"), with a warning; a page of many frames names
// maxFramesNamed of them and counts the rest (20,000 made a 960 KB
// message and metadata value).
func TestFramesetHostile(t *testing.T) {
	deep := `<html><head><title>F</title></head><frameset><frame src="a.html"><noframes>` +
		strings.Repeat("<div>", 2000) + "deep text at the bottom" + strings.Repeat("</div>", 2000) + `</noframes></frameset></html>`
	res := extractData(t, "deep.html", []byte(deep))
	if !strings.Contains(res.Pages[0].Text, "deep text at the bottom") {
		t.Errorf("text %q", res.Pages[0].Text)
	}
	if len(res.Warnings) == 0 || !strings.Contains(strings.Join(res.Warnings, " "), "<noframes> alternative were flattened") {
		t.Errorf("warnings %q", res.Warnings)
	}
	var sb strings.Builder
	sb.WriteString(`<html><head><title>F</title></head><frameset>`)
	for i := range 500 {
		fmt.Fprintf(&sb, `<frame src="f%d.html">`, i)
	}
	sb.WriteString(`<noframes><p>Frames.</p></noframes></frameset></html>`)
	res = extractData(t, "many.html", []byte(sb.String()))
	m := res.Reviews[0].Message
	if !strings.Contains(m, "f19.html, ... and 480 more)") || strings.Contains(m, "f20.html") {
		t.Errorf("message %q", m)
	}
	if f := res.Metadata.Extra["frames"]; !strings.HasSuffix(f, "f19.html ... and 480 more") {
		t.Errorf("frames %q", f)
	}
}
