package render

import (
	"testing"
	"time"
)

// TestTimedelta: modules.datetime.timedelta and date arithmetic as
// Python's: a datetime or date plus or less a timedelta (a date takes
// its days), a date less a date and a datetime less a datetime a
// timedelta, printed as str() prints it, with days, seconds,
// total_seconds(), scaling, division and comparison; an int operand is
// Python's TypeError. On main a timedelta could not be made and date -
// date was "not modelled".
func TestTimedelta(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	at := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	ctx := map[string]any{"day": Date{at}, "ts": Datetime{at}, "td": Wrap(NewTimedelta)}
	wantRendered(t, env, ctx, []struct{ src, out string }{
		{`{{ ts - td(days=3) }}|{{ day - td(days=1) }}|{{ day + td(hours=25) }}|{{ day - td(hours=1) }}|{{ ts + td(hours=13, minutes=5) }}`,
			`2024-02-27 12:00:00+00:00|2024-02-29|2024-03-02|2024-03-01|2024-03-02 01:05:00+00:00`},
		{`{{ day - (day - td(60)) }}|{{ (day - (day - td(60))).days }}|{{ ts - ts }}|{{ td(hours=-1) }}|{{ td(seconds=1.5) }}|{{ td(1, 5) * 2 }}`,
			`60 days, 0:00:00|60|0:00:00|-1 day, 23:00:00|0:00:01.500000|2 days, 0:00:10`},
		{`{{ td(1) / td(hours=1) }}|{{ td(weeks=1).total_seconds() }}|{{ td(1) > td(hours=1) }}|{{ td(1) == td(hours=24) }}|{{ td(1) // 2 }}|{{ td(hours=-1).seconds }}`,
			`24.0|604800.0|True|True|12:00:00|82800`},
	})
	wantRenderErrors(t, env, ctx, map[string]string{
		`{{ td(1) + 1 }}`:        "unsupported operand type(s) for + 'datetime.timedelta' and 'int'",
		`{{ td(1) - day }}`:      "unsupported operand type(s) for - 'datetime.timedelta' and 'datetime.date'",
		`{{ day - ts }}`:         "unsupported operand type(s) for - 'datetime.date' and 'datetime.datetime'",
		`{{ td(fortnights=1) }}`: "invalid keyword argument",
	})
}

// TestTimedeltaPastDurationRange: date arithmetic beyond a Go Duration's
// ±292 years is Python's: 9999-12-31 (an open-ended valid_to) less a date
// was 106751 days (time.Time.Sub saturates), and a datetime moved by
// 200,000 days went through an overflowing Duration.
func TestTimedeltaPastDurationRange(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	day := func(y, m, d int) Date { return Date{time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)} }
	ctx := map[string]any{"end": day(9999, 12, 31), "today": day(2024, 1, 31), "first": day(1, 1, 1),
		"ts": Datetime{time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)}, "td": Wrap(NewTimedelta)}
	wantRendered(t, env, ctx, []struct{ src, out string }{
		{`{{ (end - today).days }}|{{ today - first }}|{{ first - today }}`, `2913143|738915 days, 0:00:00|-738915 days, 0:00:00`},
		{`{{ ts - td(days=200000) }}|{{ ts + td(days=2000000, seconds=5) }}|{{ today - td(days=738915) }}`,
			`1476-06-02 12:00:00+00:00|7499-10-25 12:00:05+00:00|0001-01-01`},
	})
}

// TestTimeShiftOutOfRange: a date or datetime moved past 9999-12-31 or
// before 0001-01-01 is Python's OverflowError ("date value out of
// range"); Go's time went on to 10000-01-01 and printed it. A date less
// a timedelta of hours keeps its day, as Python takes the timedelta's
// own days (date(2024, 3, 1) - timedelta(hours=1) gave 2024-02-29).
func TestTimeShiftOutOfRange(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	end := time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
	first := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	ctx := map[string]any{"end": Date{end}, "endts": Datetime{end.Add(23 * time.Hour)}, "first": Date{first},
		"td": Wrap(NewTimedelta)}
	wantRendered(t, env, ctx, []struct{ src, out string }{
		{`{{ end + td(hours=23) }}|{{ endts + td(minutes=59) }}|{{ first + td(hours=1) }}|{{ first - td(hours=1) }}`, `9999-12-31|9999-12-31 23:59:00+00:00|0001-01-01|0001-01-01`},
	})
	wantRenderErrors(t, env, ctx, map[string]string{
		`{{ end + td(days=1) }}`:    "OverflowError",
		`{{ endts + td(hours=1) }}`: "OverflowError",
		`{{ first - td(days=1) }}`:  "OverflowError",
		`{{ td(days=1) + end }}`:    "OverflowError",
	})
}
