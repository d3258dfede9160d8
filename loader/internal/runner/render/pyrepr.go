package render

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Python's repr() of the template date types, as a printed list, tuple,
// dict or agate row shows them (exec.PyReprer): str() is 2024-01-02, repr
// datetime.date(2024, 1, 2). Each printed its str() there.

// PyRepr implements exec.PyReprer.
func (d Date) PyRepr() string { return TimeRepr(d.T, false, false) }

// PyRepr implements exec.PyReprer.
func (d Datetime) PyRepr() string { return TimeRepr(d.T, true, true) }

// PyRepr implements exec.PyReprer: datetime.timedelta(days=-1,
// seconds=61200), datetime.timedelta(0) when zero.
func (td Timedelta) PyRepr() string {
	days, secs, us := td.parts()
	var parts []string
	for _, f := range []struct {
		name string
		n    int64
	}{{"days", days}, {"seconds", secs}, {"microseconds", us}} {
		if f.n != 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", f.name, f.n))
		}
	}
	if len(parts) == 0 {
		return "datetime.timedelta(0)"
	}
	return "datetime.timedelta(" + strings.Join(parts, ", ") + ")"
}

// TimeRepr is Python's repr of a date (clock false) or a datetime at t:
// a zero microsecond left out, then a zero second (Python drops those
// two only); aware adds its tzinfo's repr.
func TimeRepr(t time.Time, clock, aware bool) string {
	if !clock {
		return fmt.Sprintf("datetime.date(%d, %d, %d)", t.Year(), int(t.Month()), t.Day())
	}
	f := []int{t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond() / 1000}
	for i := 0; i < 2 && f[len(f)-1] == 0; i++ {
		f = f[:len(f)-1]
	}
	s := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(f)), ", "), "[]")
	if aware {
		s += ", tzinfo=" + tzRepr(t)
	}
	return "datetime.datetime(" + s + ")"
}

// tzRepr is the repr of t's zone as the tzinfo Python would hold: pytz's
// <UTC> (dbt's run_started_at, a TIMESTAMPTZ of a UTC session), pytz's
// <DstTzInfo 'Asia/Tokyo' JST+9:00:00 STD> for a named zone, and
// datetime.timezone(datetime.timedelta(seconds=32400)) for a bare offset
// (fromisoformat('...+09:00')).
func tzRepr(t time.Time) string {
	name := t.Location().String()
	abbr, off := t.Zone()
	switch {
	case name == PyTimezoneUTC.String():
		return "datetime.timezone.utc"
	case name == "UTC" || name == "Etc/UTC":
		return "<UTC>"
	case strings.Contains(name, "/"):
		dst := "STD"
		if t.IsDST() {
			dst = "DST"
		}
		sign := ""
		if off > 0 {
			sign = "+"
		}
		return fmt.Sprintf("<DstTzInfo '%s' %s%s%s %s>", name, abbr, sign, Timedelta{US: int64(off) * 1e6}, dst)
	}
	return "datetime.timezone(" + Timedelta{US: int64(off) * 1e6}.PyRepr() + ")"
}

// MarshalJSON writes a date as dbt's JSON encoder does: its isoformat(),
// "2024-01-02" (a YAML date in meta or vars; it wrote its Go struct).
func (d Date) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// MarshalJSON writes an aware datetime's isoformat(), as dbt's encoder.
func (d Datetime) MarshalJSON() ([]byte, error) {
	s, err := Isoformat(d.T, true, Args{})
	if err != nil {
		return nil, err
	}
	return json.Marshal(s)
}

// PyTimezoneUTC is Python's datetime.timezone.utc, the zone PyYAML gives a
// timestamp written with Z (pytz's <UTC> is run_started_at's): its repr
// is datetime.timezone.utc.
var PyTimezoneUTC = time.FixedZone("datetime.timezone.utc", 0)
