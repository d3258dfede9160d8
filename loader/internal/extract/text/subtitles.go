package text

import (
	"regexp"
	"strconv"
	"strings"
)

// Subtitles (WebVTT and SubRip) become their spoken text: cue numbers,
// identifiers, timings, settings, NOTE/STYLE/REGION blocks and markup are
// dropped. Cues run together into one paragraph until a pause of
// subtitlePause seconds or more starts the next; a WebVTT voice span
// (<v Anna>) prefixes its cue with "Anna: " when the speaker changes.
// (No maintained Go library keeps both formats' text and voices; the
// grammar needed here is a dozen lines.)

const subtitlePause = 2.0 // seconds

var (
	timingRe = regexp.MustCompile(`^\s*((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})\s*-->\s*((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})`)
	voiceRe  = regexp.MustCompile(`<v(?:\.[^ >]*)?\s+([^>]+)>`)
	cueTagRe = regexp.MustCompile(`</?[a-zA-Z][^>]*>|<\d[\d:.]*>`)
	assTagRe = regexp.MustCompile(`\{\\[^}]*\}`)
)

// seconds parses "01:02:03.456", "02:03,456" or "2:03.4".
func seconds(ts string) float64 {
	ts = strings.ReplaceAll(ts, ",", ".")
	parts := strings.Split(ts, ":")
	total := 0.0
	for _, p := range parts {
		v, _ := strconv.ParseFloat(p, 64)
		total = total*60 + v
	}
	return total
}

// subtitleText returns the cue text of a WebVTT or SRT file as paragraphs
// separated by blank lines.
func subtitleText(s string) string {
	lines := strings.Split(s, "\n")
	var paras []string
	var cur []string
	lastEnd := -1.0
	speaker := ""
	for i := 0; i < len(lines); i++ {
		m := timingRe.FindStringSubmatch(lines[i])
		if m == nil {
			continue // header, identifiers, numbers, NOTE/STYLE/REGION blocks
		}
		start, end := seconds(m[1]), seconds(m[2])
		var text []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
			if timingRe.MatchString(lines[i]) { // a cue without its blank line
				i--
				break
			}
			text = append(text, lines[i])
		}
		cue := strings.Join(text, " ")
		if v := voiceRe.FindStringSubmatch(cue); v != nil {
			name := strings.TrimSpace(v[1])
			if name != speaker {
				cue = voiceRe.ReplaceAllString(cue, name+": ")
				speaker = name
			}
		}
		cue = assTagRe.ReplaceAllString(cueTagRe.ReplaceAllString(cue, ""), "")
		cue = strings.Join(strings.Fields(htmlEntities.Replace(cue)), " ")
		if cue == "" {
			continue
		}
		if lastEnd >= 0 && start-lastEnd >= subtitlePause && len(cur) > 0 {
			paras = append(paras, strings.Join(cur, " "))
			cur = nil
		}
		cur = append(cur, cue)
		lastEnd = end
	}
	if len(cur) > 0 {
		paras = append(paras, strings.Join(cur, " "))
	}
	return strings.Join(paras, "\n\n")
}

var htmlEntities = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&nbsp;", " ", "&lrm;", "", "&rlm;", "")
