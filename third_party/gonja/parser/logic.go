package parser

import (
	"github.com/nikolalohinski/gonja/v2/logging"
	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/tokens"
	log "github.com/sirupsen/logrus"
)

var compareOps = []tokens.Type{
	tokens.Equals,
	tokens.Ne,
	tokens.GreaterThan,
	tokens.GreaterThanOrEqual,
	tokens.LowerThan,
	tokens.LowerThanOrEqual,
}

func BinOp(token *tokens.Token) *nodes.BinOperator {
	return &nodes.BinOperator{Token: token}
}

func (p *Parser) ParseLogicalExpression() (nodes.Expression, error) {
	if logging.Enabled() {
		log.WithFields(log.Fields{
			"current": p.Current(),
		}).Trace("ParseLogicalExpression")
	}
	return p.parseOr()
}

func (p *Parser) parseOr() (nodes.Expression, error) {
	if logging.Enabled() {
		log.WithFields(log.Fields{
			"current": p.Current(),
		}).Trace("parseOr")
	}

	var expr nodes.Expression

	expr, err := p.parseAnd()
	if err != nil {
		return nil, err
	}

	for p.Current(tokens.Or) != nil {
		op := BinOp(p.Pop())
		right, err := p.parseAnd()
		if err != nil {
			return nil, err
		}
		expr = &nodes.BinaryExpression{
			Left:     expr,
			Right:    right,
			Operator: op,
		}
	}

	if logging.Enabled() {
		log.WithFields(log.Fields{
			"expr": expr,
		}).Trace("parseOr return")
	}
	return expr, nil
}

func (p *Parser) parseAnd() (nodes.Expression, error) {
	if logging.Enabled() {
		log.WithFields(log.Fields{
			"current": p.Current(),
		}).Trace("parseAnd")
	}

	var expr nodes.Expression

	expr, err := p.parseNot()
	if err != nil {
		return nil, err
	}

	for p.Current(tokens.And) != nil {
		op := BinOp(p.Pop())

		right, err := p.parseNot()
		if err != nil {
			return nil, err
		}

		expr = &nodes.BinaryExpression{
			Left:     expr,
			Right:    right,
			Operator: op,
		}
	}

	if logging.Enabled() {
		log.WithFields(log.Fields{
			"expr": expr,
		}).Trace("parseAnd return")
	}
	return expr, nil
}

func (p *Parser) parseNot() (nodes.Expression, error) {
	if logging.Enabled() {
		log.WithFields(log.Fields{
			"current": p.Current(),
		}).Trace("parseNot")
	}

	op := p.Match(tokens.Not)
	expr, err := p.parseCompare()
	if err != nil {
		return nil, err
	}

	if op != nil {
		expr = &nodes.Negation{
			Operator: op,
			Term:     expr,
		}
	}

	if logging.Enabled() {
		log.WithFields(log.Fields{
			"expr": expr,
		}).Trace("parseNot return")
	}
	return expr, nil
}

func (p *Parser) parseCompare() (nodes.Expression, error) {
	if logging.Enabled() {
		log.WithFields(log.Fields{
			"current": p.Current(),
		}).Trace("parseCompare")
	}

	var expr nodes.Expression

	expr, err := p.ParseMath()
	if err != nil {
		return nil, err
	}

	for {
		if p.Current(compareOps...) != nil {
			op := p.Pop()

			right, err := p.ParseMath()
			if err != nil {
				return nil, err
			}

			if right != nil {
				expr = &nodes.BinaryExpression{
					Left:     expr,
					Operator: BinOp(op),
					Right:    right,
				}
			}
			continue
		}
		// docket: `x in y` and `x not in y` are comparisons whose right
		// side is a whole operand (`x in y|map('lower')`), as in Jinja2;
		// upstream read them as tests taking a bare name or literal.
		notIn := p.Current(tokens.Not) != nil && p.Peek(tokens.In) != nil
		if p.Current(tokens.In) == nil && !notIn {
			break
		}
		var not *tokens.Token
		if notIn {
			not = p.Pop()
		}
		op := p.Pop()
		right, err := p.ParseMath()
		if err != nil {
			return nil, err
		}
		if right == nil {
			return nil, p.Error("Expected an operand after 'in'", p.Current())
		}
		expr = &nodes.BinaryExpression{Left: expr, Operator: BinOp(op), Right: right}
		if not != nil {
			expr = &nodes.Negation{Operator: not, Term: expr}
		}
	}

	expr, err = p.ParseTest(expr)
	if err != nil {
		return nil, err
	}

	if logging.Enabled() {
		log.WithFields(log.Fields{
			"expr": expr,
		}).Trace("parseCompare return")
	}
	return expr, nil
}
