package render

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// strFormatCtx is the values strFormatAsPython's cases format: Decimals as
// agate gives a table's numbers (d is Decimal('1.50'), big 1234567.5, tiny
// 0.000012, zero 0.00, neg -0.04, hundred 1E+2, half 0.125, big7 1.2E+7),
// floats Go's math has no literal for, and an int past int64.
func strFormatCtx() map[string]any {
	dec := func(u int64, scale int) exec.Decimal { return exec.NewDecimal(big.NewInt(u), scale) }
	bigInt, _ := new(big.Int).SetString("1000000000000000000000000000000", 10)
	return map[string]any{"d": dec(150, 2), "big": dec(12345675, 1), "tiny": dec(12, 6), "zero": dec(0, 2),
		"neg": dec(-4, 2), "hundred": dec(1, -2), "half": dec(125, 3), "big7": dec(12, -6),
		"inf": math.Inf(1), "ninf": math.Inf(-1), "nan": math.NaN(), "big_int": bigInt}
}

// strFormatAsPython is each expression with what jinja2 3.1.6's sandbox
// (dbt's) renders for it on Python 3.11 with strFormatCtx's values (the
// table was made by running every expression there): the output, or for
// err the exception's type and words, both of which docket's error must
// contain.
var strFormatAsPython = []struct {
	expr, want string
	err        bool
}{
	{`'{:e}'.format(d)`, "1.50e+0", false},
	{`'{:g}'.format(d)`, "1.50", false},
	{`'{:n}'.format(d)`, "1.50", false},
	{`'{:.3}'.format(d)`, "1.50", false},
	{`'{:.1}'.format(d)`, "2", false},
	{`'{:E}'.format(d)`, "1.50E+0", false},
	{`'{:.2e}'.format(d)`, "1.50e+0", false},
	{`'{:G}'.format(big)`, "1234567.5", false},
	{`'{:e}'.format(big)`, "1.2345675e+6", false},
	{`'{:.3}'.format(big)`, "1.23E+6", false},
	{`'{:.0e}'.format(big)`, "1e+6", false},
	{`'{:g}'.format(tiny)`, "0.000012", false},
	{`'{:e}'.format(tiny)`, "1.2e-5", false},
	{`'{}'.format(tiny)`, "0.000012", false},
	{`'{:}'.format(tiny)`, "0.000012", false},
	{`'{:f}'.format(tiny)`, "0.000012", false},
	{`'{:g}'.format(zero)`, "0.00", false},
	{`'{:e}'.format(zero)`, "0e-2", false},
	{`'{:.3e}'.format(zero)`, "0.000e+1", false},
	{`'{:.1f}'.format(neg)`, "-0.0", false},
	{`'{: }'.format(d)`, " 1.50", false},
	{`'{:012,}'.format(d)`, "0,000,001.50", false},
	{`'{:.0f}'.format(d)`, "2", false},
	{`'{:%}'.format(d)`, "150%", false},
	{`'{:.1%}'.format(d)`, "150.0%", false},
	{`'{:,}'.format(big)`, "1,234,567.5", false},
	{`'{:,.2f}'.format(big)`, "1,234,567.50", false},
	{`'{:>12}'.format(d)`, "        1.50", false},
	{`'{:*^12.1f}'.format(d)`, "****1.5*****", false},
	{`'{:x}'.format(d)`, "ValueError: invalid format string", true},
	{`'{:_}'.format(d)`, "ValueError: invalid format string", true},
	{`'{:#}'.format(d)`, "ValueError: invalid format string", true},
	{`'{:d}'.format(d)`, "ValueError: invalid format string", true},
	{`'{:010}'.format(neg)`, "-000000.04", false},
	{`'{:+.2f}'.format(d)`, "+1.50", false},
	{`'{:.5g}'.format(big)`, "1.2346e+6", false},
	{`'{:.2}'.format(hundred)`, "1E+2", false},
	{`'{:f}'.format(hundred)`, "100", false},
	{`'{:e}'.format(hundred)`, "1e+2", false},
	{`'{}'.format(hundred)`, "1E+2", false},
	{`'{:,}'.format(1234567)`, "1,234,567", false},
	{`'{:_}'.format(1234567)`, "1_234_567", false},
	{`'{:_x}'.format(1234567)`, "12_d687", false},
	{`'{:_b}'.format(255)`, "1111_1111", false},
	{`'{:012,}'.format(1234567)`, "0,001,234,567", false},
	{`'{:012_}'.format(1234567)`, "0_001_234_567", false},
	{`'{:#010x}'.format(255)`, "0x000000ff", false},
	{`'{:#x}'.format(-255)`, "-0xff", false},
	{`'{:#X}'.format(255)`, "0XFF", false},
	{`'{:#o}'.format(8)`, "0o10", false},
	{`'{:#b}'.format(5)`, "0b101", false},
	{`'{:+#x}'.format(255)`, "+0xff", false},
	{`'{:>#10x}'.format(255)`, "      0xff", false},
	{`'{:<#10x}'.format(255)`, "0xff      ", false},
	{`'{:^#10x}'.format(255)`, "   0xff   ", false},
	{`'{:=#10x}'.format(-255)`, "-0x     ff", false},
	{`'{:*=#10x}'.format(-255)`, "-0x*****ff", false},
	{`'{:+,}'.format(1234567)`, "+1,234,567", false},
	{`'{:>10,}'.format(1234567)`, " 1,234,567", false},
	{`'{:,f}'.format(1234567)`, "1,234,567.000000", false},
	{`'{:,x}'.format(255)`, "ValueError: Cannot specify ',' with 'x'.", true},
	{`'{:,n}'.format(255)`, "ValueError: Cannot specify ',' with 'n'.", true},
	{`'{:n}'.format(1234567)`, "1234567", false},
	{`'{:c}'.format(65)`, "A", false},
	{`'{:5c}'.format(65)`, "    A", false},
	{`'{:05c}'.format(65)`, "0000A", false},
	{`'{:+c}'.format(65)`, "ValueError: Sign not allowed with integer format specifier 'c'", true},
	{`'{:.3}'.format(7)`, "ValueError: Precision not allowed in integer format specifier", true},
	{`'{:d}'.format(7)`, "7", false},
	{`'{:05d}'.format(-7)`, "-0007", false},
	{`'{:-05d}'.format(7)`, "00007", false},
	{`'{: d}'.format(7)`, " 7", false},
	{`'{:e}'.format(7)`, "7.000000e+00", false},
	{`'{:%}'.format(7)`, "700.000000%", false},
	{`'{:g}'.format(7)`, "7", false},
	{`'{:.2f}'.format(7)`, "7.00", false},
	{`'{:z}'.format(7)`, "ValueError: Negative zero coercion (z) not allowed in integer format specifier", true},
	{`'{:d}'.format(2.5)`, "ValueError: Unknown format code 'd' for object of type 'float'", true},
	{`'{:012,}'.format(1234.5)`, "00,001,234.5", false},
	{`'{:012,.2f}'.format(1234.5)`, "0,001,234.50", false},
	{`'{:010,}'.format(-1234.5)`, "-001,234.5", false},
	{`'{:f}'.format(1.5)`, "1.500000", false},
	{`'{:%}'.format(0.5)`, "50.000000%", false},
	{`'{:,f}'.format(1234.5)`, "1,234.500000", false},
	{`'{:e}'.format(1234.5)`, "1.234500e+03", false},
	{`'{:g}'.format(1234567.5)`, "1.23457e+06", false},
	{`'{:.3}'.format(1234.5)`, "1.23e+03", false},
	{`'{:.3}'.format(1.0)`, "1.0", false},
	{`'{:.10}'.format(1.0)`, "1.0", false},
	{`'{:.3}'.format(0.0001)`, "0.0001", false},
	{`'{:.3}'.format(1e20)`, "1e+20", false},
	{`'{}'.format(1e20)`, "1e+20", false},
	{`'{}'.format(1e16)`, "1e+16", false},
	{`'{}'.format(1.5e-7)`, "1.5e-07", false},
	{`'{:,}'.format(1e20)`, "1e+20", false},
	{`'{:010}'.format(1.5)`, "00000001.5", false},
	{`'{:+}'.format(1.5)`, "+1.5", false},
	{`'{:#g}'.format(1.5)`, "1.50000", false},
	{`'{:#.0f}'.format(1.5)`, "2.", false},
	{`'{:.0f}'.format(2.5)`, "2", false},
	{`'{:g}'.format(0.0001)`, "0.0001", false},
	{`'{:g}'.format(0.00001)`, "1e-05", false},
	{`'{:G}'.format(1e-10)`, "1E-10", false},
	{`'{:n}'.format(1234.5)`, "1234.5", false},
	{`'{:,n}'.format(1234.5)`, "ValueError: Cannot specify ',' with 'n'.", true},
	{`'{:z.1f}'.format(-0.01)`, "0.0", false},
	{`'{:.1f}'.format(-0.01)`, "-0.0", false},
	{`'{:f}'.format(inf)`, "inf", false},
	{`'{:F}'.format(inf)`, "INF", false},
	{`'{:010}'.format(inf)`, "0000000inf", false},
	{`'{:,}'.format(ninf)`, "-inf", false},
	{`'{:%}'.format(nan)`, "nan%", false},
	{`'{:e}'.format(nan)`, "nan", false},
	{`'{}'.format(nan)`, "nan", false},
	{`'{:x}'.format(1.5)`, "ValueError: Unknown format code 'x' for object of type 'float'", true},
	{`'{:d}'.format(true)`, "1", false},
	{`'{:5}'.format(true)`, "    1", false},
	{`'{}'.format(true)`, "True", false},
	{`'{:f}'.format(true)`, "1.000000", false},
	{`'{:>5}'.format('ab')`, "   ab", false},
	{`'{:5}'.format('ab')`, "ab   ", false},
	{`'{:^6}'.format('ab')`, "  ab  ", false},
	{`'{:.1}'.format('ab')`, "a", false},
	{`'{:.0}'.format('ab')`, "", false},
	{`'{:*<5.1}'.format('ab')`, "a****", false},
	{`'{:,}'.format('ab')`, "ValueError: Cannot specify ',' with 's'.", true},
	{`'{:d}'.format('ab')`, "ValueError: Unknown format code 'd' for object of type 'str'", true},
	{`'{:+}'.format('ab')`, "ValueError: Sign not allowed in string format specifier", true},
	{`'{:=5}'.format('ab')`, "ValueError: '=' alignment not allowed in string format specifier", true},
	{`'{:#}'.format('ab')`, "ValueError: Alternate form (#) not allowed in string format specifier", true},
	{`'{:05}'.format('ab')`, "ab000", false},
	{`'{:s}'.format('ab')`, "ab", false},
	{`'{0[1]}'.format('abc')`, "b", false},
	{`'{0[0]}{0[2]}'.format('abc')`, "ac", false},
	{`'{a[1]}'.format(a=[1, 2])`, "2", false},
	{`'{a[0]}'.format(a=(7, 8))`, "7", false},
	{`'{a.b}'.format(a={'b': 2})`, "2", false},
	{`'{a[b]}'.format(a={'b': 2})`, "2", false},
	{`'{a[b][c]}'.format(a={'b': {'c': 3}})`, "3", false},
	{`'{a.b.c}'.format(a={'b': {'c': 3}})`, "3", false},
	{`'{}'.format(none)`, "None", false},
	{`'{!r}'.format('ab')`, "'ab'", false},
	{`'{!a}'.format('é')`, "'\\xe9'", false},
	{`'{!s:>4}'.format(7)`, "   7", false},
	{`'{}'.format([1, 'a'])`, "[1, 'a']", false},
	{`'{}'.format({'a': 1})`, "{'a': 1}", false},
	{`'{:>4}'.format(none)`, "TypeError: unsupported format string passed to NoneType.__format__", true},
	{`'{:>4}'.format([1])`, "TypeError: unsupported format string passed to list.__format__", true},
	{`'{:,}'.format(big_int)`, "1,000,000,000,000,000,000,000,000,000,000", false},
	{`'{:e}'.format(big_int)`, "1.000000e+30", false},
	{`'{0:{1}}'.format(3.14159, '.2f')`, "3.14", false},
	{`'{:{w}.{p}f}'.format(3.14159, w=8, p=2)`, "    3.14", false},
	{`'{:,.0f}'.format(1e6)`, "1,000,000", false},
	{`'{:.2%}'.format(0.12345)`, "12.35%", false},
	{`'{:,.2f}'.format(-1234567.891)`, "-1,234,567.89", false},
	{`'{:>+10.2f}'.format(3.14159)`, "     +3.14", false},
	{`'{:,}'.format(-1234)`, "-1,234", false},
	{`'{:,}'.format(0)`, "0", false},
	{`'{:010,.1f}'.format(-0.5)`, "-000,000.5", false},
	{`'{:_}'.format(1234.5)`, "1_234.5", false},
	{`'{:,.3e}'.format(1234.5)`, "1.234e+03", false},
	{`'{:,g}'.format(1234567.0)`, "1.23457e+06", false},
	{`'{:.15g}'.format(0.1)`, "0.1", false},
	{`'{:.17g}'.format(0.1)`, "0.10000000000000001", false},
	{`'{:,.2f}'.format(d)`, "1.50", false},
	{`'{:012,.2f}'.format(big)`, "1,234,567.50", false},
	{`'{:+e}'.format(neg)`, "-4e-2", false},
	{`'{:010.3f}'.format(neg)`, "-00000.040", false},
	{`'{:<10}|'.format(d)`, "1.50      |", false},
	{`'{:^10}|'.format(big)`, "1234567.5 |", false},
	{`'{:.0%}'.format(d)`, "150%", false},
	{`'{:.2g}'.format(d)`, "1.5", false},
	{`'{:.0g}'.format(d)`, "2", false},
	{`'{:.10e}'.format(d)`, "1.5000000000e+0", false},
	{`'{:.2f}'.format(half)`, "0.12", false},
	{`'{:.0f}'.format(half)`, "0", false},
	{`'{:g}'.format(big7)`, "1.2e+7", false},
	{`'{}'.format(big7)`, "1.2E+7", false},
	{`'{:f}'.format(big7)`, "12000000", false},
	{`'{:0>8}'.format(d)`, "00001.50", false},
	{`'{:0=8}'.format(d)`, "00001.50", false},
	{`'{:08}'.format(d)`, "00001.50", false},
	{`'{:x<8}'.format(d)`, "1.50xxxx", false},
	{`'{:,e}'.format(big)`, "1.2345675e+6", false},
	{`'{:,g}'.format(big)`, "1,234,567.5", false},
	{`'{:.3%}'.format(half)`, "12.500%", false},
	{`'{:,%}'.format(big)`, "123,456,750%", false},
	{`'{:,f}'.format(hundred)`, "100", false},
	{`'{:010,.1f}'.format(big)`, "1,234,567.5", false},
	{`'{:+010.2f}'.format(neg)`, "-000000.04", false},
	{`'{:z.1f}'.format(neg)`, "0.0", false},
	{`'{:.0e}'.format(d)`, "2e+0", false},
	{`'{:.1e}'.format(half)`, "1.2e-1", false},
	{`'{:.2g}'.format(half)`, "0.12", false},
	{`'{:G}'.format(tiny)`, "0.000012", false},
	{`'{:.1G}'.format(tiny)`, "0.00001", false},
	{`'{:e}'.format(big7)`, "1.2e+7", false},
	{`'{:,}'.format(big7)`, "1.2E+7", false},
	{`'{:,.0f}'.format(big7)`, "12,000,000", false},
	{`'{:.3}'.format(big7)`, "1.2E+7", false},
	{`'{:.1%}'.format(zero)`, "0.0%", false},
	{`'{:f}'.format(zero)`, "0.00", false},
	{`'{:.1}'.format(zero)`, "0.00", false},
	{`'{:n}'.format(big)`, "1234567.5", false},
	{`'{:0>5}'.format(42)`, "00042", false},
	{`'{:0<5}'.format(42)`, "42000", false},
	{`'{:0^5}'.format(42)`, "04200", false},
	{`'{:0=5}'.format(-42)`, "-0042", false},
	{`'{:0=+8.2f}'.format(3.14159)`, "+0003.14", false},
	{`'{:#.3g}'.format(1.0)`, "1.00", false},
	{`'{:.3g}'.format(1234.5)`, "1.23e+03", false},
	{`'{:,.1%}'.format(12.3456)`, "1,234.6%", false},
	{`'{:#e}'.format(1.0)`, "1.000000e+00", false},
	{`'{:#.0e}'.format(1.0)`, "1.e+00", false},
	{`'{:_.2f}'.format(1234567.891)`, "1_234_567.89", false},
	{`'{:#,}'.format(1234567)`, "1,234,567", false},
	{`'{:x<#8x}'.format(255)`, "0xffxxxx", false},
	{`'{:#08b}'.format(5)`, "0b000101", false},
	{`'{:#_b}'.format(255)`, "0b1111_1111", false},
	{`'{:#012_x}'.format(1234567)`, "0x0_0012_d687", false},
	{`'{:o}'.format(-8)`, "-10", false},
	{`'{:X}'.format(3054)`, "BEE", false},
	{`'{:é>5}'.format(7)`, "éééé7", false},
	{`'{:é^7}'.format('ab')`, "ééabééé", false},
	{`'{:>5}'.format('日本')`, "   日本", false},
	{`'{:.1}'.format('日本')`, "日", false},
	{`'{}{}'.format(1)`, "IndexError: index", true},
	{`'{0}{}'.format(1, 2)`, "ValueError: cannot switch from manual field specification to automatic field numbering", true},
	{`'{x}'.format(y=1)`, "KeyError: 'x'", true},
	{`'{'.format(1)`, "ValueError: Single '{' encountered in format string", true},
	{`'}'.format(1)`, "ValueError: Single '}' encountered in format string", true},
	{`'{{}}'.format()`, "{}", false},
	{`'{:{}}'.format(7, '>5')`, "    7", false},
	{`'{:%Y-%m}'.format(7)`, "ValueError: Invalid format specifier '%Y-%m' for object of type 'int'", true},
	{`'{:>10}'.format(1.5)`, "       1.5", false},
	{`'{:<10}|'.format(1.5)`, "1.5       |", false},
	{`'{:^10.3f}'.format(-1.5)`, "  -1.500  ", false},
	{`'{:=10.3f}'.format(-1.5)`, "-    1.500", false},
	{`'{:.2f}'.format(0.125)`, "0.12", false},
	{`'{:.2f}'.format(0.375)`, "0.38", false},
	{`'{:.1f}'.format(0.25)`, "0.2", false},
	{`'{:.0f}'.format(0.5)`, "0", false},
	{`'{:.0f}'.format(1.5)`, "2", false},
	{`'{:g}'.format(100000.0)`, "100000", false},
	{`'{:g}'.format(1000000.0)`, "1e+06", false},
	{`'{}'.format(100000.0)`, "100000.0", false},
	{`'{}'.format(1e15)`, "1000000000000000.0", false},
	{`'{}'.format(0.1)`, "0.1", false},
	{`'{}'.format(-0.0)`, "-0.0", false},
	{`'{:f}'.format(-0.0)`, "-0.000000", false},
	{`'{:z}'.format(-0.0)`, "0.0", false},
	{`'{:.2}'.format(-0.0)`, "-0.0", false},
	{`'{:,}'.format(1234567.25)`, "1,234,567.25", false},
	{`'{:_}'.format(1e20)`, "1e+20", false},
	{`'{:.3e}'.format(0.0)`, "0.000e+00", false},
	{`'{:g}'.format(0.0)`, "0", false},
	{`'{:%}'.format(1)`, "100.000000%", false},
	{`'{:.0%}'.format(0.005)`, "0%", false},
	{`'{:n}'.format(1e20)`, "1e+20", false},
	{`'{:.3n}'.format(1234.5)`, "1.23e+03", false},
	{`'{:d}'.format(true)`, "1", false},
	{`'{:x}'.format(false)`, "0", false},
	{`'{:.1f}'.format(true)`, "1.0", false},
	{`'{:>6}'.format(false)`, "     0", false},
	{`'{:,}'.format(-10**20)`, "100,000,000,000,000,000,000", false},
	{`'{:,}'.format(1.0)`, "1.0", false},
	{`'{:,}'.format(123456789.0)`, "123,456,789.0", false},
	{`'{:,}'.format(1e16)`, "1e+16", false},
	{`'{:12,}'.format(1234.5)`, "     1,234.5", false},
	{`'{:<012}'.format(3)`, "300000000000", false},
	{`'{:<012,}'.format(3)`, "300000000000", false},
	{`'{:*>012}'.format(3)`, "***********3", false},
	{`'{}'.format(1.0)`, "1.0", false},
	{`'{:}'.format(2.5)`, "2.5", false},
	{`'{:.3}'.format(2.5)`, "2.5", false},
	{`'{:.3}'.format(1e-5)`, "1e-05", false},
	{`'{:.3}'.format(123456.0)`, "1.23e+05", false},
	{`'{:.6}'.format(123456.0)`, "1.23456e+05", false},
	{`'{:5.3}'.format(0.5)`, "  0.5", false},
	{`'{:#.3}'.format(1.0)`, "1.00", false},
	{`'{:#}'.format(1.0)`, "1.0", false},
	{`'{:#}'.format(1e20)`, "1.e+20", false},
	{`'{}'.format(inf)`, "inf", false},
	{`'{}'.format(ninf)`, "-inf", false},
	{`'{:%Y-%m}'.format(7.5)`, "ValueError: Invalid format specifier '%Y-%m' for object of type 'float'", true},
	{`'{:%Y-%m}'.format('ab')`, "ValueError: Invalid format specifier '%Y-%m' for object of type 'str'", true},
	{`'{:zz}'.format(7.5)`, "ValueError: Unknown format code 'z' for object of type 'float'", true},
	{`'{:,,}'.format(7)`, "ValueError: Cannot specify ',' with ','.", true},
	{`'{:,_}'.format(7)`, "ValueError: Cannot specify both ',' and '_'.", true},
	{`'{:.}'.format(7.5)`, "ValueError: Format specifier missing precision", true},
	{`'{'.format(1)`, "ValueError: Single '{' encountered in format string", true},
	{`'{0'.format(1)`, "ValueError: expected '}' before end of string", true},
	{`'a{'.format(1)`, "ValueError: Single '{' encountered in format string", true},
	{`'{:'.format(1)`, "ValueError: unmatched '{' in format spec", true},
	{`'{0:>5'.format(1)`, "ValueError: unmatched '{' in format spec", true},
	{`'}'.format(1)`, "ValueError: Single '}' encountered in format string", true},
	{`'a}b'.format(1)`, "ValueError: Single '}' encountered in format string", true},
	{`'{0!x}'.format(1)`, "ValueError: Unknown conversion specifier x", true},
}

// TestStrFormatAsPython: str.format of an int, a float, a Decimal, a str
// and nested fields as Python's format() gives them (review41 LOW 8 and
// jinja41's list): a Decimal's e, g, n and precision forms keep its digits
// ('{:e}' of Decimal('1.50') was 1.500000e+00 for 1.50e+0, through the
// float), ',' and '_' group an int ('{:,}'.format(1234567) raised "'='
// grouping only allowed with float and int types"), a zero-padded width
// is padded inside the grouping ('{:012,}' of 1234.5 was 000001,234.5),
// 'f' and '%' of a float have 6 places ('{:f}'.format(1.5) was 1.5), an
// int past int64 formats ('{:,}' of 10**30 was a TypeError), inf and nan
// are Python's words (+Inf, NaN), '{0[1]}' indexes a str (KeyError: '1'),
// '{a.b}' reads a dict's key as jinja's getattr does (KeyError), str's
// refusals ('{:=5}', '{:.0}' kept the whole string) and the format
// string's own errors are Python's.
func TestStrFormatAsPython(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	ctx := strFormatCtx()
	for _, tc := range strFormatAsPython {
		tpl, err := env.Parse("m.sql", "{{ "+tc.expr+" }}")
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		out, err := tpl.Render(ctx)
		typ, words, _ := strings.Cut(tc.want, ": ")
		switch {
		case tc.err && (err == nil || !strings.Contains(err.Error(), typ) || !strings.Contains(err.Error(), words)):
			t.Errorf("%s: got %q, %v; want the error %s", tc.expr, out, err, tc.want)
		case !tc.err && (err != nil || out != tc.want):
			t.Errorf("%s: got %q, %v; want %q", tc.expr, out, err, tc.want)
		}
	}
}

// TestStrFormatMissingFieldStrict: a field's index or key that is not
// there, which jinja2's sandbox formats as its Undefined (empty, as dbt
// prints {{ a.x }}), is an error naming it in docket, as docket's strict
// undefined makes {{ a.x }} (Python's plain str.format raises too).
func TestStrFormatMissingFieldStrict(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRenderErrors(t, env, strFormatCtx(), map[string]string{
		"{{ '{0[3]}'.format('abc') }}":       "'str object' has no element 3",
		"{{ '{a[5]}'.format(a=[1]) }}":       "'list object' has no element 5",
		"{{ '{a[x]}'.format(a={'b': 2}) }}":  "'dict object' has no attribute 'x'",
		"{{ '{a.x}'.format(a={'b': 2}) }}":   "'dict object' has no attribute 'x'",
		"{{ '{a.b.c}'.format(a={'b': 2}) }}": "'int object' has no attribute 'c'",
	})
}

// TestFloatStrAsPython: str() of an infinite or NaN float is Python's inf,
// -inf, nan wherever a float prints (it was Go's +Inf, -Inf, NaN).
func TestFloatStrAsPython(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRendered(t, env, strFormatCtx(), []struct{ src, out string }{
		{"{{ nan }}|{{ inf }}|{{ ninf }}|{{ nan ~ '' }}|{{ [nan, inf] }}|{{ nan | string }}", "nan|inf|-inf|nan|[nan, inf]|nan"},
	})
}

// TestStrFormatHugeNumberIsValueError: a width or precision past int64 is
// Python's ValueError (review44's LOW on 2546a6e): docket took Atoi's
// MaxInt64 for '{:.99999999999999999999f}' and died out of memory.
func TestStrFormatHugeNumberIsValueError(t *testing.T) {
	env, errs := NewEnv(nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantRenderErrors(t, env, strFormatCtx(), map[string]string{
		"{{ '{:.99999999999999999999f}'.format(1.5) }}": "Too many decimal digits in format string",
		"{{ '{:99999999999999999999}'.format(1) }}":     "Too many decimal digits in format string",
	})
}
