package builtins

import (
	"errors"
	"math/big"
	"reflect"
	"strings"

	"github.com/nikolalohinski/gonja/v2/exec"
)

var Tests = exec.NewTestSet(map[string]exec.TestFunction{
	"boolean":     testBoolean,
	"callable":    testCallable,
	"defined":     testDefined,
	"divisibleby": testDivisibleby,
	"eq":          testEqual,
	"equalto":     testEqual,
	"==":          testEqual,
	"escaped":     testEscaped,
	"even":        testEven,
	"false":       testFalse,
	"filter":      testFilter,
	"float":       testFloat,
	"ge":          testGreaterEqual,
	">=":          testGreaterEqual,
	"gt":          testGreaterThan,
	"greaterthan": testGreaterThan,
	">":           testGreaterThan,
	"in":          testIn,
	"integer":     testInteger,
	"iterable":    testIterable,
	"le":          testLessEqual,
	"<=":          testLessEqual,
	"lower":       testLower,
	"lt":          testLessThan,
	"lessthan":    testLessThan,
	"<":           testLessThan,
	"mapping":     testMapping,
	"ne":          testNotEqual,
	"!=":          testNotEqual,
	"none":        testNone,
	"number":      testNumber,
	"odd":         testOdd,
	"sameas":      testSameas,
	"sequence":    testSequence,
	"string":      testString,
	"test":        testTest,
	"true":        testTrue,
	"undefined":   testUndefined,
	"upper":       testUpper,
})

func testBoolean(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	return in.IsBool(), nil
}

func testCallable(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	return in.IsCallable(), nil
}

// testDefined is Jinja2's `defined`: false for what is undefined (a
// failed lookup, an error under StrictUndefined; a left-out macro
// parameter), true for None (docket: a nil was undefined, so `none is
// defined` and config.get('x') is defined were false).
func testDefined(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	return !(in.IsError() || in.Undefined), nil
}

func testDivisibleby(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	param := params.First()
	if param.Integer() == 0 {
		return false, nil
	}
	return in.Integer()%param.Integer() == 0, nil
}

func testEqual(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	param := params.First()
	return in.EqualValueTo(param), nil
}

// testEven and testOdd are Jinja2's value % 2 == 0 and == 1 with Python's
// %: docket: -3 is odd (Go's -3 % 2 is -1), a Decimal or a big int counts.
func testEven(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	r, ok := exec.PyMod2(in)
	return ok && r.EqualValueTo(exec.AsValue(0)), nil
}

// docket: Jinja2's `false` test is `value is False`: only the boolean
// False (upstream: anything not True, so 0, 1, 'x', none and [3] were all
// "false").
func testFalse(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	return in.IsBool() && !in.Bool(), nil
}

func testFloat(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	return in.IsFloat(), nil
}

func testGreaterEqual(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	param := params.Args[0]
	if !in.IsNumber() || !param.IsNumber() {
		return false, nil
	}
	return in.Float() >= param.Float(), nil
}

func testGreaterThan(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	var to float64
	if err := params.Take(
		exec.PositionalArgument("to", nil, exec.NumberArgument(&to)),
	); err != nil {
		return false, exec.ErrInvalidCall(err)
	}

	return in.Float() > to, nil
}

func testIn(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	seq := params.First()
	return seq.Contains(in), nil
}

func testInteger(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	_, big := in.Interface().(*big.Int) // docket: Python's int past int64
	return in.IsInteger() || big, nil
}

func testIterable(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	return in.IsDict() || in.IsList() || in.IsString(), nil
}

func testSequence(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	return in.IsList(), nil
}

func testLessEqual(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	param := params.Args[0]
	if !in.IsNumber() || !param.IsNumber() {
		return false, nil
	}
	return in.Float() <= param.Float(), nil
}

func testLower(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	if !in.IsString() {
		return false, nil
	}
	return strings.ToLower(in.String()) == in.String(), nil
}

func testLessThan(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	param := params.Args[0]
	if !in.IsNumber() || !param.IsNumber() {
		return false, nil
	}
	return in.Float() < param.Float(), nil
}

func testMapping(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	return in.IsDict(), nil
}

func testNotEqual(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	param := params.First()
	return !in.EqualValueTo(param), nil
}

func testNone(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	return in.IsNil() && !in.Undefined, nil // docket: Undefined is not None
}

func testNumber(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	return in.IsNumber() || exec.IsBigNumber(in), nil // docket: a Decimal, a big int
}

func testOdd(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	r, ok := exec.PyMod2(in)
	return ok && r.EqualValueTo(exec.AsValue(1)), nil
}

func testSameas(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	param := params.Args[0]
	if in.IsNil() && param.IsNil() {
		return true, nil
	} else if param.Val.CanAddr() && in.Val.CanAddr() {
		return param.Val.Addr() == in.Val.Addr(), nil
	}
	return reflect.Indirect(param.Val) == reflect.Indirect(in.Val), nil
}

func testString(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	return in.IsString(), nil
}

func testTrue(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	return in.Bool(), nil
}

func testUndefined(ctx *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	defined, err := testDefined(ctx, in, params)
	return !defined, err
}

func testUpper(_ *exec.Context, in *exec.Value, params *exec.VarArgs) (bool, error) {
	if !in.IsString() {
		return false, nil
	}
	return strings.ToUpper(in.String()) == in.String(), nil
}

func testEscaped(_ *exec.Evaluator, in *exec.Value, params *exec.VarArgs) (bool, error) {
	if in.IsError() {
		return false, errors.New(in.Error())
	}
	if err := params.ExpectNothing(); err != nil {
		return false, exec.ErrInvalidCall(err)
	}
	escaped := in.Escaped()
	return escaped == in.String(), nil
}

func testTest(e *exec.Evaluator, in *exec.Value, params *exec.VarArgs) (bool, error) {
	if in.IsError() {
		return false, errors.New(in.Error())
	}
	if err := params.ExpectNothing(); err != nil {
		return false, exec.ErrInvalidCall(err)
	}
	return e.Environment.Tests.Exists(in.String()), nil
}

func testFilter(e *exec.Evaluator, in *exec.Value, params *exec.VarArgs) (bool, error) {
	if in.IsError() {
		return false, errors.New(in.Error())
	}
	if err := params.ExpectNothing(); err != nil {
		return false, exec.ErrInvalidCall(err)
	}
	return e.Environment.Filters.Exists(in.String()), nil
}
