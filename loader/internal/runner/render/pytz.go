package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// TZInfo is a pytz time zone as templates use dbt's modules.pytz: utc,
// timezone(name); localize(a naive datetime) gives the aware one, a
// datetime's astimezone(tz) and replace(tzinfo=tz) take it.
type TZInfo struct{ Loc *time.Location }

// String is str(tz): its name ("UTC", "Asia/Tokyo").
func (z TZInfo) String() string {
	if z.Loc == PyTimezoneUTC { // PyYAML's Z: str(datetime.timezone.utc) is UTC
		return "UTC"
	}
	if name := z.Loc.String(); name != "" && z.Loc != time.Local {
		return name
	}
	// a bare offset (PyYAML's +02:00; time.Parse gives Local for one that
	// is the machine's): str(datetime.timezone) is UTC+02:00
	_, off := time.Date(2000, 1, 1, 0, 0, 0, 0, z.Loc).Zone()
	if off == 0 {
		return "UTC"
	}
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	s := fmt.Sprintf("UTC%s%02d:%02d", sign, off/3600, off/60%60)
	if off%60 != 0 {
		s += fmt.Sprintf(":%02d", off%60)
	}
	return s
}

// PyTypeName names it in Python's messages (exec.PyTypeNamer).
func (z TZInfo) PyTypeName() string {
	if z.Loc == time.UTC {
		return "UTC"
	}
	return "DstTzInfo"
}

// GetAttribute implements gonja's attribute lookup: localize, zone.
func (z TZInfo) GetAttribute(name string) (*exec.Value, bool) {
	switch name {
	case "zone":
		return exec.AsValue(z.String()), true
	case "localize":
		return exec.AsValue(Wrap(func(a Args) (any, error) {
			if len(a.Pos) != 1 {
				return nil, fmt.Errorf("localize() takes one naive datetime")
			}
			w, ok := a.Pos[0].(interface{ Wall() time.Time })
			if !ok {
				return nil, fmt.Errorf("localize(): %v is not a naive datetime (Python: ValueError, Not naive datetime (tzinfo is already set))", a.Pos[0])
			}
			return Datetime{T: inZone(w.Wall(), z.Loc)}, nil
		})), true
	}
	return nil, false
}

// PytzModule is dbt's modules.pytz: utc (and UTC) and timezone(name).
// It was missing: a package's modules.pytz.utc was "attribute 'pytz' not
// found" (dbt-airflow-macros).
func PytzModule() map[string]any {
	return map[string]any{"utc": TZInfo{time.UTC}, "UTC": TZInfo{time.UTC},
		"timezone": Wrap(func(a Args) (any, error) {
			if len(a.Pos) != 1 {
				return nil, fmt.Errorf("timezone() takes a zone name")
			}
			name := fmt.Sprint(a.Pos[0])
			if strings.EqualFold(name, "utc") {
				return TZInfo{time.UTC}, nil
			}
			loc, err := time.LoadLocation(name)
			if err != nil || name == "" || name == "Local" {
				return nil, fmt.Errorf("UnknownTimeZoneError as in Python (%s)", exec.PyStrRepr(name))
			}
			return TZInfo{loc}, nil
		})}
}

// inZone is wall's clock reading in loc (pytz's localize, replace(tzinfo=)).
func inZone(wall time.Time, loc *time.Location) time.Time {
	return time.Date(wall.Year(), wall.Month(), wall.Day(), wall.Hour(), wall.Minute(), wall.Second(), wall.Nanosecond(), loc)
}

// Isoformat is Python's datetime.isoformat(sep='T', timespec='auto') of
// t (aware: with its offset).
func Isoformat(t time.Time, aware bool, a Args) (string, error) {
	sep, spec := "T", "auto"
	if s, ok := a.Kw["sep"]; ok {
		sep = fmt.Sprint(s)
	} else if len(a.Pos) > 0 {
		sep = fmt.Sprint(a.Pos[0])
	}
	if s, ok := a.Kw["timespec"]; ok {
		spec = fmt.Sprint(s)
	} else if len(a.Pos) > 1 {
		spec = fmt.Sprint(a.Pos[1])
	}
	layout := map[string]string{"hours": "15", "minutes": "15:04", "seconds": "15:04:05", "milliseconds": "15:04:05.000",
		"microseconds": "15:04:05.000000"}[spec]
	if spec == "auto" {
		layout = "15:04:05"
		if t.Nanosecond() >= 1000 {
			layout = "15:04:05.000000"
		}
	}
	if layout == "" {
		return "", fmt.Errorf("ValueError as in Python (Unknown timespec value)")
	}
	s := t.Format("2006-01-02") + sep + t.Format(layout)
	if aware {
		s += t.Format("-07:00")
	}
	return s, nil
}

// zoneMethod is the attribute of an aware Datetime that takes a zone
// (astimezone, replace) or formats (isoformat); false for any other.
func (d Datetime) zoneMethod(name string) (*exec.Value, bool) {
	switch name {
	case "isoformat":
		return exec.AsValue(Wrap(func(a Args) (any, error) { return Isoformat(d.T, true, a) })), true
	case "astimezone":
		return exec.AsValue(Wrap(func(a Args) (any, error) {
			if len(a.Pos) == 0 {
				return Datetime{T: d.T.UTC()}, nil // docket's clock is UTC
			}
			z, ok := a.Pos[0].(TZInfo)
			if !ok {
				return nil, fmt.Errorf("TypeError as in Python (tzinfo argument must be None or of a tzinfo subclass, not type '%s')", exec.PyTypeName(exec.AsValue(a.Pos[0])))
			}
			return Datetime{T: d.T.In(z.Loc)}, nil
		})), true
	case "replace":
		return exec.AsValue(Wrap(func(a Args) (any, error) {
			t, _, err := ReplaceTime(d.T, a, true) // tzinfo= keeps the wall clock
			return Datetime{T: t}, err
		})), true
	}
	return nil, false
}
