package html

import (
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A frameset page (<frameset> in place of <body>) shows other files in its
// frames; the only text of its own is its <noframes> alternative, for
// browsers without frames. The HTML parser reads <noframes> as raw text,
// as the HTML standard says (browsers with frames never show it), so its
// markup came out as text ("<body> <p>This site uses frames...", review39).
// framesetText parses each <noframes>'s text as HTML in its place (the
// element becomes a div holding the parsed nodes) and returns the frames'
// sources in document order; frameset says the page is one, alternative
// that it has a <noframes>. On any other
// page a <noframes> stays raw text and the walker skips it, as browsers
// hide it (skipTags).
func framesetText(doc *html.Node) (frames []string, frameset, alternative, flattened bool) {
	var noframes []*html.Node
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "frameset":
				frameset = true
			case "frame":
				if src := strings.TrimSpace(attr(n, "src")); src != "" {
					frames = append(frames, src)
				}
			case "noframes":
				noframes = append(noframes, n)
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c)
		}
	}
	visit(doc)
	if !frameset {
		return nil, false, false, false
	}
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	for _, nf := range noframes {
		var raw strings.Builder
		for c := nf.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				raw.WriteString(c.Data)
			}
		}
		nodes, err := html.ParseFragment(strings.NewReader(raw.String()), body)
		if err != nil {
			// elements nested past the parser's 512: the tags past a
			// depth go, their text stays, as for the page itself
			// (ExtractBytes); review40 found the alternative dropped
			nodes, err = html.ParseFragment(strings.NewReader(flattenDeep(raw.String(), 256)), body)
			if err != nil {
				continue // left raw: the walker skips it
			}
			flattened = true
		}
		for c := nf.FirstChild; c != nil; {
			next := c.NextSibling
			nf.RemoveChild(c)
			c = next
		}
		nf.Data, nf.DataAtom = "div", atom.Div
		for _, c := range nodes {
			nf.AppendChild(c)
		}
	}
	return frames, true, len(noframes) > 0, flattened
}

// maxFramesNamed: the frames a frameset's review and its metadata name;
// the rest are counted (a page of 20,000 frames made a 960 KB message).
const maxFramesNamed = 20

// framesNamed is frames joined by sep, the first maxFramesNamed of them
// and a count of the rest.
func framesNamed(frames []string, sep string) string {
	if len(frames) <= maxFramesNamed {
		return strings.Join(frames, sep)
	}
	return strings.Join(frames[:maxFramesNamed], sep) + fmt.Sprintf("%s... and %d more", sep, len(frames)-maxFramesNamed)
}

// framesetReview is the review message of a frameset page whose frames
// are frames; alternative says it has a <noframes>.
func framesetReview(frames []string, alternative bool) string {
	msg := "the page is a frameset: what a browser shows is in its frames' own files"
	if len(frames) > 0 {
		msg += " (" + framesNamed(frames, ", ") + ")"
	} else {
		msg += " (no frame names its file)"
	}
	msg += ", which land as documents of their own only if they are among the source files; "
	if alternative {
		return msg + "this page's text is its <noframes> alternative, for browsers without frames"
	}
	return msg + "the page has no <noframes> alternative, so no text of its own"
}
