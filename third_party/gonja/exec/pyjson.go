package exec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"
)

// PyJSONDumps (docket) is Python's json.dumps(v, sort_keys=True) as
// Jinja2's tojson filter writes it (htmlSafe: htmlsafe_json_dumps) and
// dbt ls --output json: see PyJSON.
func PyJSONDumps(v any, htmlSafe bool) (string, error) {
	return PyJSON(ToValue(v), true, htmlSafe)
}

// PyJSON (docket) is Python's json.dumps(v) as dbt's tojson and Jinja2's
// tojson filter write it: ", " and ": " between items, every character
// past ASCII as \uXXXX (ensure_ascii; a surrogate pair beyond the BMP), a
// float as Python's repr (1.0, 1e+20, NaN, Infinity), a dict in its
// insertion order (a Go map, which keeps none, sorted) unless sortKeys.
// htmlSafe is Jinja2's htmlsafe_json_dumps: <, >, & and ' as \u003c,
// \u003e, \u0026 and \u0027. A Decimal is written as a float (dbt's
// JSON encoder's form); a value json.dumps has no form for, as Go's
// encoding/json writes it.
func PyJSON(v *Value, sortKeys, htmlSafe bool) (string, error) {
	var buf bytes.Buffer
	if err := writeCompactJSON(&buf, v, sortKeys, htmlSafe, 0); err != nil {
		return "", err
	}
	return pySpacedJSON(buf.Bytes(), htmlSafe), nil
}

// writeCompactJSON writes v as compact JSON, Go's string escapes.
func writeCompactJSON(buf *bytes.Buffer, v *Value, sortKeys, htmlSafe bool, depth int) error {
	if depth > 100 {
		return fmt.Errorf("Circular reference detected")
	}
	goJSON := func(x any) error {
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(htmlSafe)
		if err := enc.Encode(x); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // the encoder's newline
		return nil
	}
	if v == nil || v.IsNil() {
		buf.WriteString("null")
		return nil
	}
	if n, ok := v.Interface().(PyTypeNamer); ok { // a query's date: json.dumps refuses it
		name := n.PyTypeName()
		return &PyTypeError{Msg: "Object of type " + name[strings.LastIndex(name, ".")+1:] + " is not JSON serializable"}
	}
	if n, ok := v.Interface().(PyClassNamer); ok { // range(), agate's Table, Row, Column: json.dumps refuses them
		return &PyTypeError{Msg: "Object of type " + n.PyClassName() + " is not JSON serializable"}
	}
	switch x := v.Interface().(type) {
	case Decimal: // json.dumps refuses a Decimal (upstream: a float, another value)
		return &PyTypeError{Msg: "Object of type Decimal is not JSON serializable"}
	case *big.Int:
		buf.WriteString(x.String())
		return nil
	case json.Marshaler:
		return goJSON(x)
	}
	switch {
	case v.IsBool():
		fmt.Fprint(buf, v.Bool())
	case v.IsInteger():
		buf.WriteString(v.String())
	case v.IsFloat():
		f := v.Float()
		switch {
		case math.IsNaN(f):
			buf.WriteString("NaN")
		case math.IsInf(f, 1):
			buf.WriteString("Infinity")
		case math.IsInf(f, -1):
			buf.WriteString("-Infinity")
		default:
			buf.WriteString(formatFloatString(f))
		}
	case v.IsString():
		return goJSON(v.String())
	case v.IsDict():
		return writeJSONObject(buf, v, sortKeys, htmlSafe, depth)
	case v.IsList():
		buf.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeCompactJSON(buf, v.Index(i), sortKeys, htmlSafe, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	default:
		return goJSON(v.Interface())
	}
	return nil
}

// writeJSONObject writes a dict: keys as Python's json turns them to
// strings (1 -> "1", True -> "true", None -> "null").
func writeJSONObject(buf *bytes.Buffer, v *Value, sortKeys, htmlSafe bool, depth int) error {
	type item struct {
		key string
		val *Value
	}
	var items []item
	keyText := func(k *Value) string {
		switch {
		case k.IsNil():
			return "null"
		case k.IsBool():
			return fmt.Sprint(k.Bool())
		}
		return k.String()
	}
	if d, ok := v.Interface().(*Dict); ok {
		for _, p := range d.Pairs {
			items = append(items, item{keyText(p.Key), p.Value})
		}
	} else {
		r := v.getResolvedValue()
		if r.Kind() == reflect.Map {
			for _, k := range r.MapKeys() {
				items = append(items, item{keyText(ToValue(k)), ToValue(r.MapIndex(k))})
			}
		} else {
			for _, k := range v.Keys() {
				val, _ := v.GetItem(k.Interface())
				items = append(items, item{keyText(k), val})
			}
		}
		sortKeys = true // a Go map keeps no order
	}
	if sortKeys {
		sort.SliceStable(items, func(i, j int) bool { return items[i].key < items[j].key })
	}
	buf.WriteByte('{')
	for i, it := range items {
		if i > 0 {
			buf.WriteByte(',')
		}
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(htmlSafe)
		if err := enc.Encode(it.key); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1)
		buf.WriteByte(':')
		if err := writeCompactJSON(buf, it.val, sortKeys, htmlSafe, depth+1); err != nil {
			return err
		}
	}
	buf.WriteByte('}')
	return nil
}

// pySpacedJSON turns compact JSON into json.dumps' form: ", " and ": ",
// ensure_ascii, and (htmlSafe) ' as \u0027.
func pySpacedJSON(compact []byte, htmlSafe bool) string {
	var out strings.Builder
	inStr, esc := false, false
	for i := 0; i < len(compact); {
		r, size := utf8.DecodeRune(compact[i:])
		i += size
		switch {
		case inStr && r > 0x7e:
			if r > 0xffff {
				r -= 0x10000
				fmt.Fprintf(&out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			} else {
				fmt.Fprintf(&out, `\u%04x`, r)
			}
			continue
		case inStr && esc:
			esc = false
		case inStr && r == '\\':
			esc = true
		case inStr && htmlSafe && r == '\'':
			out.WriteString(`\u0027`)
			continue
		case r == '"':
			inStr = !inStr
		case !inStr && (r == ',' || r == ':'):
			out.WriteRune(r)
			out.WriteByte(' ')
			continue
		}
		out.WriteRune(r)
	}
	return out.String()
}
