package office

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
)

// odfHide follows the text of an ODT (or ODP, ODS) body that LibreOffice
// neither shows nor prints: a section hidden (text:section
// text:display="none"), a paragraph hidden by a hidden-paragraph field
// (text:hidden-paragraph text:is-hidden="true") or by its style, a
// hidden-text field (text:hidden-text text:is-hidden="true") and a span
// whose character style hides it (style:text-properties
// text:display="none", the style's parents followed). That text lands as
// the rest does and is said, as office/28 says a DOCX's w:vanish runs:
// a warning and metadata hidden_text (before, nothing told it apart). A
// condition LibreOffice evaluates (text:display="condition") is not
// evaluated here: such text is taken as shown; a section shown or hidden
// so is said (office/35: a warning naming it and its condition, metadata
// conditional_sections), for LibreOffice may hide what landed.
type odfHide struct {
	hiddenRuns
	open        []odfHideEl // the open p, h, section, span and hidden-text elements
	level       int         // how many of them hide their content
	conditional []string    // sections shown by a condition: `"name" (condition)`, the first few
	nCond       int         // how many
}

type odfHideEl struct{ para, hidden bool }

// odfField is an open text:hidden-text field: its text:string-value, and
// the length of its paragraph's text at its start.
type odfField struct {
	value string
	at    int
}

// textNS says whether an element is of ODF's text namespace.
func textNS(n xml.Name) bool { return strings.Contains(n.Space, ":text:") }

// textHidden follows a style chain for its text-properties' text:display
// (the nearest style stating it wins).
func (s odfStyles) textHidden(name string) bool {
	for i := 0; i < 10 && name != ""; i++ {
		if v := s.display[name]; v != 0 {
			return v > 0
		}
		name = s.parent[name]
	}
	return false
}

// style records a style's text:display and an ODP drawing-page style's
// presentation:visibility, read in the style named name.
func (s odfStyles) style(name string, t xml.StartElement) {
	if name == "" || s.display == nil {
		return
	}
	switch t.Name.Local {
	case "text-properties":
		switch attrVal(t, "display") {
		case "none":
			s.display[name] = 1
		case "true", "condition":
			s.display[name] = -1
		}
	case "drawing-page-properties":
		if attrVal(t, "visibility") == "hidden" {
			s.pageHidden[name] = true
		}
	}
}

// start reads a start tag; para is the open paragraph's text so far, for
// a hidden-paragraph field that hides the text before it too.
func (h *odfHide) start(t xml.StartElement, styles odfStyles, para func() string) {
	if h == nil || !textNS(t.Name) {
		return
	}
	el := odfHideEl{}
	switch t.Name.Local {
	case "p", "h":
		el = odfHideEl{para: true, hidden: styles.textHidden(attrVal(t, "style-name"))}
	case "section":
		el.hidden = attrVal(t, "display") == "none"
		if attrVal(t, "display") == "condition" {
			if h.nCond++; len(h.conditional) < hiddenSamples {
				h.conditional = append(h.conditional, fmt.Sprintf("%q (%s)", attrVal(t, "name"), attrVal(t, "condition")))
			}
		}
	case "span":
		el.hidden = styles.textHidden(attrVal(t, "style-name"))
	case "hidden-text":
		el.hidden = attrVal(t, "is-hidden") == "true"
	case "hidden-paragraph":
		if attrVal(t, "is-hidden") != "true" {
			return
		}
		for i := len(h.open) - 1; i >= 0; i-- {
			if h.open[i].para {
				if !h.open[i].hidden {
					h.open[i].hidden = true
					h.level++
					if h.level == 1 {
						h.text(para())
					}
				}
				break
			}
		}
		return
	default:
		return
	}
	h.open = append(h.open, el)
	if el.hidden {
		h.level++
	}
}

// end reads an end tag: a hidden element's end closes its run.
func (h *odfHide) end(t xml.EndElement) {
	if h == nil || len(h.open) == 0 || !textNS(t.Name) {
		return
	}
	switch t.Name.Local {
	case "p", "h", "section", "span", "hidden-text":
	default:
		return
	}
	el := h.open[len(h.open)-1]
	h.open = h.open[:len(h.open)-1]
	if el.hidden {
		h.level--
		if h.level == 0 {
			h.endRun()
			return
		}
	}
	if el.para && h.level > 0 {
		h.text(" ") // a hidden section's paragraphs, one sample
	}
}

// write records text written where it is hidden.
func (h *odfHide) write(s string) {
	if h != nil && h.level > 0 {
		h.text(s)
	}
}

func (h *odfHide) say(b *builder) {
	if h == nil {
		return
	}
	h.hiddenRuns.say(b, "passage(s)", "LibreOffice neither shows nor prints them: a hidden section, paragraph, field or character style")
	if h.nCond > 0 {
		setExtra(&b.res.Metadata, "conditional_sections", strings.Join(h.conditional, "\t"))
		b.warn("%d section(s) shown or hidden by a condition LibreOffice evaluates (on a field's or variable's value), not evaluated here: their text landed as shown, first %s (metadata conditional_sections)", h.nCond, h.conditional[0])
	}
}

// sayHiddenSlides warns of hidden slides (numbers as text) that landed
// and records them in metadata hidden_slides (office/20 for a PPTX, a
// drawing-page style's presentation:visibility="hidden" for an ODP).
func sayHiddenSlides(b *builder, hidden []string) {
	if len(hidden) == 0 {
		return
	}
	// landed like the others (their text is the file's), but said:
	// a search hit on one is text the audience never saw
	setExtra(&b.res.Metadata, "hidden_slides", strings.Join(hidden, ","))
	which := "slide " + hidden[0] + " is"
	if len(hidden) > 1 {
		which = "slides " + strings.Join(hidden, ", ") + " are"
	}
	b.warn("%s hidden (not shown in a slide show): the text landed as the other slides' (metadata hidden_slides)", which)
}

// odtTablesHidden says an ODT's (or ODP's) tables' hidden rows and
// columns holding text, as sayHidden says a sheet's (office/28): "table
// 2" in the warning and metadata hidden_rows / hidden_columns.
type odtTablesHidden struct {
	n          int // outermost tables so far
	rows, cols []string
}

func (o *odtTablesHidden) table(b *builder, rows, cols []span) {
	name := "table " + strconv.Itoa(o.n+1)
	sayHidden(b, "LibreOffice does not show them", name, name, rows, cols, &o.rows, &o.cols)
}

func (o *odtTablesHidden) finish(b *builder) {
	setExtra(&b.res.Metadata, "hidden_rows", strings.Join(o.rows, "\t"))
	setExtra(&b.res.Metadata, "hidden_columns", strings.Join(o.cols, "\t"))
}
