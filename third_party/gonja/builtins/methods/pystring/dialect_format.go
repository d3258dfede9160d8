package pystring

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nikolalohinski/gonja/v2/builtins/methods/pyerrors"
)

// Formatter is implemented by any value that decides how a formatting
// string should be interpreted. If not implemented, the default formatter is used.
type Formatter interface {
	Format(format string) (string, error)
}

func (d Dialect) Format(s string, vargs []any, kwarg map[string]any) (string, error) {

	var res strings.Builder

	scan := NewScanner(s, d)
	for {
		t, s, err := scan.Next()
		if err != nil {
			if errors.Is(err, pyerrors.ErrValue) || errors.Is(err, pyerrors.ErrIndex) {
				return "", err // docket: Python's own error ("Single '}' ..."), not prefixed InternalError
			}
			return "", fmt.Errorf("%w: %s", pyerrors.ErrInternal, err.Error())
		}

		switch {
		case t == Characters:
			res.WriteString(s)

		case t == ReplacementBlock:
			err := d.parseReplacementField(s, &res, vargs, kwarg)
			if err != nil {
				return "", err
			}

		case t == EOF:
			return res.String(), nil

		default:
			return "", fmt.Errorf("%w: Unknown token type %s", pyerrors.ErrInternal, t.String())

		}
	}
}

// parseReplacementField numbers automatic replacement blocks "{}" and normalizes
// all accessor patters (e.g. m['sub'] -> m.sub). Then splits up value part from
// formatting specifications; extracts the value from vargs and kwargs and applies
// the specified formatting.
func (d Dialect) parseReplacementField(s string, res *strings.Builder, vargs []any, kwarg map[string]any) error {
	// Strip initial and final braces
	if s[0] != '{' && s[len(s)-1] != '}' {
		return fmt.Errorf("%w: format didn't have format directives in: %s", pyerrors.ErrInternal, s)
	}
	s = s[1 : len(s)-1]

	// Extract string value of and format directives.
	formatDelimiterIdx := strings.Index(string(s), ":")
	var value, formatSpecifier string
	if formatDelimiterIdx == -1 {
		value = s
	} else {
		value = s[:formatDelimiterIdx]
		formatSpecifier = s[formatDelimiterIdx+1:]
	}
	// docket: a conversion, {x!r} / {x!s} / {x!a}: the value's repr() or
	// str(), then formatted as a string (was a KeyError: 'x!r')
	var conv byte
	if i := strings.IndexByte(value, '!'); i >= 0 {
		if i != len(value)-2 {
			return fmt.Errorf("%w: expected ':' after conversion specifier", pyerrors.ErrValue)
		}
		conv, value = value[i+1], value[:i]
		if conv != 'r' && conv != 's' && conv != 'a' {
			return fmt.Errorf("%w: Unknown conversion specifier %c", pyerrors.ErrValue, conv)
		}
	}

	// formatSpecifier may itself be based on replacement fields
	format, err := d.Format(formatSpecifier, vargs, kwarg)
	if err != nil {
		return fmt.Errorf("%w: failed subformat on value '%s'", err, format)
	}
	_ = format

	// Extract vargs
	if v, err := strconv.Atoi(string(value)); err == nil && v >= 0 {
		if v >= len(vargs) || v < 0 {
			return fmt.Errorf("%w: Replacement index %d out of range for positional args tuple", pyerrors.ErrIndex, v)
		}
		return d.convertAndFormat(res, conv, vargs[v], string(format))
	}

	// python separates attributes and getAttr but for us they will be one and the same.
	// translate [] accessors to dot notation; e.g. m['sub'] -> m.sub;
	path := simpleJSONPathSplit(string(value))
	// docket: a positional argument's field, '{0[1]}' (was KeyError: '0')
	if v, err := strconv.Atoi(path[0]); err == nil && v >= 0 && len(path) > 1 {
		if v >= len(vargs) {
			return fmt.Errorf("%w: Replacement index %d out of range for positional args tuple", pyerrors.ErrIndex, v)
		}
		getter, ok := vargs[v].(AttributeGetter)
		if !ok {
			return fmt.Errorf("%w: '%s'", pyerrors.ErrKey, path[1])
		}
		anyVal, err := getNestedKwArgs(path[1:], getter)
		if err != nil {
			return err
		}
		return d.convertAndFormat(res, conv, anyVal, string(format))
	}
	anyVal, err := getNestedKwArgs(path, KwArgs(kwarg))
	if err != nil {
		return err
	}

	return d.convertAndFormat(res, conv, anyVal, string(format))
}

// convertAndFormat applies a field's conversion (Convert) to value, then
// its format spec.
func (d Dialect) convertAndFormat(res *strings.Builder, conv byte, value any, formatStr string) error {
	if conv != 0 {
		if Convert == nil {
			return fmt.Errorf("%w: conversion !%c is not supported", pyerrors.ErrValue, conv)
		}
		s, err := Convert(value, conv)
		if err != nil {
			return err
		}
		value = s
	}
	return d.formatReplacementFieldValue(res, value, formatStr)
}

// Convert (docket) is a field's conversion of a format argument: 'r'
// repr(), 's' str(), 'a' ascii(); set by the methods package, which
// knows the template's values.
var Convert func(value any, conv byte) (string, error)

func (d Dialect) formatReplacementFieldValue(res *strings.Builder, value any, formatStr string) error {
	if dataTypeFormatter, ok := value.(Formatter); ok {
		s, err := dataTypeFormatter.Format(formatStr)
		if err != nil {
			return err
		}
		_, err = res.WriteString(s)
		return err
	}

	dialectFormatter, err := d.NewFormatterSpecFromStr(formatStr)
	if err != nil {
		return err
	}

	formattedString, err := dialectFormatter.Format(value)
	if err != nil {
		return err
	}

	_, err = res.WriteString(formattedString)
	return err
}

// ItemMark and AttrMark (docket) begin each part of a field's path past
// its name: '{a[1].x}' is a, ItemMark+"1", AttrMark+"x", so a value's
// AttributeGetter tells a[x] from a.x (jinja's getitem / getattr). The
// path is split as Python's formatter_field_name_split: a [key] runs to
// the first ']', quotes and all.
const (
	ItemMark = "["
	AttrMark = "."
)

func simpleJSONPathSplit(path string) []string {
	end := strings.IndexAny(path, ".[")
	if end < 0 {
		return []string{path}
	}
	parts := []string{path[:end]}
	rest := path[end:]
	for rest != "" {
		if rest[0] == '[' {
			close := strings.IndexByte(rest, ']')
			if close < 0 {
				close = len(rest)
			}
			parts = append(parts, ItemMark+rest[1:close])
			rest = rest[min(close+1, len(rest)):]
			continue
		}
		rest = rest[1:] // the '.'
		end = strings.IndexAny(rest, ".[")
		if end < 0 {
			end = len(rest)
		}
		parts = append(parts, AttrMark+rest[:end])
		rest = rest[end:]
	}
	return parts
}
