package text

import (
	"strings"

	ical "github.com/emersion/go-ical"
)

// A repeating entry's changed occurrence is an entry of its own with the
// same UID and a RECURRENCE-ID naming the occurrence it replaces (Outlook
// and Google write one for each moved or renamed meeting of a series).
// text/9 landed it as a second entry with nothing saying so, and dropped
// a series' EXDATE (occurrences taken out) and RDATE (ones added): a
// reader saw two meetings where one had moved, and a cancelled week as
// held.

// repeatingEntries maps the UID of each entry that repeats (RRULE or
// RDATE) and is no changed occurrence to its summary.
func repeatingEntries(children []*ical.Component) map[string]string {
	m := map[string]string{}
	for _, c := range children {
		uid := propText(c.Props, ical.PropUID)
		if uid == "" || c.Props.Get(ical.PropRecurrenceID) != nil {
			continue
		}
		if c.Props.Get(ical.PropRecurrenceRule) != nil || c.Props.Get(ical.PropRecurrenceDates) != nil {
			m[uid] = propText(c.Props, ical.PropSummary)
		}
	}
	return m
}

// changedOccurrence says which occurrence of which series entry c
// replaces: "2024-03-19 09:00 (Europe/Berlin) of the repeating “Weekly
// sync”" ("" when c has no RECURRENCE-ID).
func changedOccurrence(c *ical.Component, repeating map[string]string) string {
	p := c.Props.Get(ical.PropRecurrenceID)
	if p == nil {
		return ""
	}
	d, z := calendarTime(p)
	v := d + z
	summary, ok := repeating[propText(c.Props, ical.PropUID)]
	switch {
	case ok && summary != "":
		v += " of the repeating “" + summary + "”"
	case ok:
		v += " of the repeating entry above"
	default:
		v += " of a repeating entry not in this file"
	}
	if strings.EqualFold(p.Params.Get("RANGE"), "THISANDFUTURE") {
		v += ", and every later one"
	}
	return v
}

// calendarDates is the dates of an entry's RDATE or EXDATE properties
// (each may repeat and list several), formatted as its start is.
func calendarDates(props ical.Props, name string) string {
	var out []string
	for _, p := range props.Values(name) {
		for _, v := range strings.Split(p.Value, ",") {
			if v = strings.TrimSpace(v); v != "" {
				q := p
				q.Value = v
				d, z := calendarTime(&q)
				out = append(out, d+z)
			}
		}
	}
	return strings.Join(out, ", ")
}
