package controlStructures

import (
	"bytes"
	"fmt"

	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/parser"
	"github.com/nikolalohinski/gonja/v2/tokens"
	"github.com/pkg/errors"
)

type SetControlStructure struct {
	location    *tokens.Token
	target      nodes.Expression
	unpack      []string // docket: {% set a, b = ... %}: the names the value's items go to
	expression  nodes.Expression
	condition   nodes.Expression
	alternative nodes.Expression
	body        *nodes.Wrapper
}

func (scs *SetControlStructure) Position() *tokens.Token {
	return scs.location
}
func (scs *SetControlStructure) String() string {
	t := scs.Position()
	return fmt.Sprintf("SetControlStructure(Line=%d Col=%d)", t.Line, t.Col)
}

func (scs *SetControlStructure) Execute(r *exec.Renderer, tag *nodes.ControlStructureBlock) error {
	var value *exec.Value

	// --- Block form: {% set x %}...{% endset %} ---
	if scs.body != nil {
		buf := new(bytes.Buffer)
		sub := r.Inherit()
		originalOutput := sub.Output
		sub.Output = buf
		err := sub.ExecuteWrapper(scs.body)
		sub.Output = originalOutput
		if err != nil {
			return err
		}
		// Jinja2's block-set captures the rendered string as a Markup
		// (safe) value. Match that semantic.
		value = exec.AsSafeValue(buf.String())
	} else {
		// --- Expression form: {% set x = expr [if cond else alt] %} ---
		if scs.condition != nil && scs.alternative != nil {
			condition := r.Eval(scs.condition)
			if condition.IsError() {
				return condition
			}
			if !condition.IsNil() && condition.IsTrue() {
				value = r.Eval(scs.expression)
			} else {
				value = r.Eval(scs.alternative)
			}
		} else {
			value = r.Eval(scs.expression)
		}
	}

	if value == nil {
		return errors.Errorf(`Invalid value in 'set' tag: %s`, scs.expression)
	}
	if value.IsError() {
		return value
	}

	if len(scs.unpack) > 0 {
		return scs.setUnpacked(r, value)
	}

	switch n := scs.target.(type) {
	case *nodes.Name:
		if value.None {
			r.Environment.Context.Set(n.Name.Val, value) // docket: keeps None (renders "None")
		} else {
			r.Environment.Context.Set(n.Name.Val, value.Interface())
		}
	case *nodes.GetAttribute:
		target := r.Eval(n.Node)
		if target.IsError() {
			return errors.Wrapf(target, `Unable to evaluate target %s`, n)
		}
		if err := target.Set(exec.AsValue(n.Attribute), value.Interface()); err != nil {
			return errors.Wrapf(err, `Unable to set value on "%s"`, n.Attribute)
		}
	case *nodes.GetItem:
		target := r.Eval(n.Node)
		if target.IsError() {
			return errors.Wrapf(target, `Unable to evaluate target %s`, n)
		}
		arg := r.Eval(n.Arg)
		if arg.IsError() {
			return errors.Wrapf(target, `Unable to evaluate argument %s`, n.Arg)
		}
		if err := target.Set(arg, value.Interface()); err != nil {
			return errors.Wrapf(err, `Unable to set value on "%s"`, n.Arg)
		}
	default:
		return errors.Errorf(`Illegal set target node %s`, n)
	}

	return nil
}

// setUnpacked (docket) gives each name of {% set a, b = value %} its
// item of value, as Jinja2 (Python's unpacking: the counts must match).
func (scs *SetControlStructure) setUnpacked(r *exec.Renderer, value *exec.Value) error {
	if !value.IsList() {
		return errors.Errorf("cannot unpack %s into %d names", value.String(), len(scs.unpack))
	}
	if n := value.Len(); n != len(scs.unpack) {
		if n > len(scs.unpack) {
			return errors.Errorf("too many values to unpack (expected %d)", len(scs.unpack))
		}
		return errors.Errorf("not enough values to unpack (expected %d, got %d)", len(scs.unpack), n)
	}
	var items []*exec.Value
	switch x := value.Interface().(type) {
	case exec.Tuple: // its items keep None (renders "None")
		items = x
	case exec.ValuesList:
		items = x
	default:
		for i := range value.Len() {
			items = append(items, value.Index(i))
		}
	}
	for i, name := range scs.unpack {
		item := items[i]
		if item.None {
			r.Environment.Context.Set(name, item)
		} else {
			r.Environment.Context.Set(name, item.Interface())
		}
	}
	return nil
}

func setParser(p *parser.Parser, args *parser.Parser) (nodes.ControlStructure, error) {
	cs := &SetControlStructure{
		location: p.Current(),
	}

	// Parse target (variable name / attr / item).
	ident, err := args.ParseVariableOrLiteral()
	if err != nil {
		return nil, errors.Wrap(err, `unable to parse identifier`)
	}
	switch n := ident.(type) {
	case *nodes.Name, *nodes.Call, *nodes.GetItem, *nodes.GetAttribute:
		cs.target = n
		if name, ok := n.(*nodes.Name); ok {
			args.MarkAssigned(name.Name.Val)
		}
	default:
		return nil, errors.Errorf(`unexpected set target %s`, n)
	}
	// docket: {% set a, b = ... %} unpacks, as Jinja2
	for args.Match(tokens.Comma) != nil {
		first, ok := cs.target.(*nodes.Name)
		if !ok {
			return nil, args.Error("only names can be unpacked into in 'set'", args.Current())
		}
		if len(cs.unpack) == 0 {
			cs.unpack = []string{first.Name.Val}
		}
		next, err := args.ParseVariableOrLiteral()
		if err != nil {
			return nil, errors.Wrap(err, `unable to parse identifier`)
		}
		name, ok := next.(*nodes.Name)
		if !ok {
			return nil, args.Error("only names can be unpacked into in 'set'", args.Current())
		}
		args.MarkAssigned(name.Name.Val)
		cs.unpack = append(cs.unpack, name.Name.Val)
	}
	if len(cs.unpack) > 0 && args.Current(tokens.Assign) == nil {
		return nil, args.Error("Expected '=' after the names to unpack into", args.Current())
	}

	if args.Match(tokens.Assign) == nil {
		if !args.End() {
			return nil, args.Error("Expected '=' or end of tag for block-set.", args.Current())
		}
		wrapper, endargs, err := p.WrapUntil("endset")
		if err != nil {
			return nil, err
		}
		if !endargs.End() {
			return nil, endargs.Error("endset takes no arguments", nil)
		}
		cs.body = wrapper
		return cs, nil
	}

	// --- Expression form: {% set x = expr [if cond else alt] %} ---
	expr, err := args.ParseExpression()
	if err != nil {
		return nil, err
	}
	if t := args.Current(tokens.Comma); t != nil {
		// docket: {% set x = 1, 2 %} is a tuple, as Jinja2
		items := []nodes.Expression{expr}
		for args.Match(tokens.Comma) != nil {
			if args.End() {
				break
			}
			e, err := args.ParseExpression()
			if err != nil {
				return nil, err
			}
			items = append(items, e)
		}
		expr = &nodes.Tuple{Location: t, Val: items}
	}
	cs.expression = expr

	condition, alternative, err := args.ParseCondition()
	if err != nil {
		return nil, err
	}
	if condition != nil {
		cs.condition = condition
		if alternative == nil {
			return nil, args.Error("Malformed 'set' if else condition", args.Current())
		}
		cs.alternative = alternative
	}

	if !args.End() {
		return nil, args.Error("Malformed 'set' tag args.", args.Current())
	}

	return cs, nil
}
