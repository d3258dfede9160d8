package office

import (
	"encoding/xml"
	"strings"
	"unicode/utf8"
)

// docxHidden counts the hidden text (w:vanish: Word neither shows nor
// prints it unless hidden text is shown) a document's parts landed, with
// the first runs' text to name it. The text lands as the visible text
// (as office/20 lands hidden slides and sheets); before office/28 it did
// so without a word, a search hit on text no reader of the page saw.
type docxHidden struct {
	styles docxStyles
	hiddenRuns
}

// hiddenRuns counts runs of hidden text as they are written (a DOCX's
// w:vanish runs, an ODT's hidden sections, paragraphs, fields and
// spans), keeping the first ones' text to name them.
type hiddenRuns struct {
	runs    int
	chars   int
	samples []string
	cur     strings.Builder // the hidden run being read
	filled  bool            // it holds text (cur keeps none past the samples)
}

const (
	hiddenSamples   = 5
	hiddenSampleLen = 80
)

// vanishVal reads a w:vanish (an ST_OnOff: absent is on) as 1 on, -1 off.
func vanishVal(t xml.StartElement) int8 {
	if onOff(t) {
		return 1
	}
	return -1
}

// hiddenStyle follows a style chain for its run properties' w:vanish
// (the nearest style stating it wins): 1 hidden, -1 shown, 0 unsaid.
func (ss docxStyles) hiddenStyle(id string) int8 {
	for i := 0; i < 10 && id != ""; i++ {
		st, ok := ss[id]
		if !ok {
			return 0
		}
		if st.vanish != 0 {
			return st.vanish
		}
		id = st.basedOn
	}
	return 0
}

// runHidden resolves a run's hidden state: its own w:vanish, else its
// character style's, else its paragraph style's.
func (h *docxHidden) runHidden(direct int8, rStyle, pStyle string) bool {
	if h == nil {
		return false
	}
	if direct != 0 {
		return direct > 0
	}
	if v := h.styles.hiddenStyle(rStyle); v != 0 {
		return v > 0
	}
	return h.styles.hiddenStyle(pStyle) > 0
}

// text records hidden text as it is written.
func (h *docxHidden) text(s string) {
	if h != nil {
		h.hiddenRuns.text(s)
	}
}

// endRun closes a hidden run.
func (h *docxHidden) endRun() {
	if h != nil {
		h.hiddenRuns.endRun()
	}
}

// say warns of the hidden text that landed and records its first runs in
// metadata hidden_text (tab-separated).
func (h *docxHidden) say(b *builder) {
	if h != nil {
		h.hiddenRuns.say(b, "run(s)", "Word neither shows nor prints them unless hidden text is shown")
	}
}

// text records hidden text as it is written.
func (h *hiddenRuns) text(s string) {
	n := utf8.RuneCountInString(strings.TrimSpace(s))
	h.chars += n
	h.filled = h.filled || n > 0
	if len(h.samples) < hiddenSamples && h.cur.Len() < hiddenSampleLen*4 {
		h.cur.WriteString(s)
	}
}

// endRun closes a hidden run: counted when it held text.
func (h *hiddenRuns) endRun() {
	s := strings.Join(strings.Fields(h.cur.String()), " ")
	h.cur.Reset()
	if !h.filled {
		return
	}
	h.filled = false
	h.runs++
	if len(h.samples) < hiddenSamples && s != "" {
		if r := []rune(s); len(r) > hiddenSampleLen {
			s = string(r[:hiddenSampleLen]) + "…"
		}
		h.samples = append(h.samples, s)
	}
}

// say warns of the hidden text that landed (runs, counted as what: "run(s)"),
// why it is hidden, and records its first runs in metadata hidden_text
// (tab-separated).
func (h *hiddenRuns) say(b *builder, what, why string) {
	if h.runs == 0 {
		return
	}
	setExtra(&b.res.Metadata, "hidden_text", strings.Join(h.samples, "\t"))
	b.warn("%d %s of hidden text (%d characters; %s) landed with the visible text, first %q (metadata hidden_text)", h.runs, what, h.chars, why, h.samples[0])
}
