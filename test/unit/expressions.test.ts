import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCondition, conditionHolds } from '../../src/expressions/conditions.ts';
import { compile, ExpressionSyntaxError, holds, valueOfCompiled } from '../../src/expressions/index.ts';
import { evaluateExpression, evaluateToBoolean, evaluateToText, PAGE_DIALECT } from '../../src/expressions/page.ts';

const scope = { space: { vars: { version: '2.1', count: 3 } }, page: { vars: { plan: 'pro' } }, visitor: { claims: { plan: 'enterprise', seats: 12, roles: ['admin'] } } };

describe('the one expression language', () => {
  it('has one semantics for pages and site conditions', () => {
    const value = (source: string) => valueOfCompiled(compile(source, PAGE_DIALECT), scope);
    assert.equal(value('space.vars.count * 2 + 1'), 7);
    assert.equal(value('"v" + space.vars.version'), 'v2.1');
    assert.equal(value('visitor.claims.seats > 10 ? "big" : "small"'), 'big');
    assert.equal(value('page.vars.missing ?? "none"'), 'none');
    assert.equal(value('visitor.claims.roles.includes("admin")'), true);
    // == is strict, except that null and undefined are equal; relational operators never coerce.
    assert.equal(value('page.vars.missing == null'), true);
    assert.equal(value('space.vars.count == "3"'), false);
    assert.equal(value('space.vars.version > 2'), false);
    for (const source of ['visitor.claims.seats > 10 ? true : false', 'visitor.claims.seats * 2 == 24', 'visitor.claims.plan + "!" == "enterprise!"']) {
      assert.equal(conditionHolds(source, scope.visitor.claims), true, source);
    }
  });

  it('refuses arithmetic on values that are not numbers, instead of coercing', () => {
    assert.equal(evaluateToText('space.vars.version * 2', scope), '');
    assert.equal(evaluateToText('page.vars.plan - 1', scope), '');
    assert.equal(conditionHolds('visitor.claims.roles + 1 == 1', scope.visitor.claims), false);
  });

  it('lets each use read only its own roots', () => {
    assert.throws(() => checkCondition('space.vars.beta'), /Unknown name "space" at column 1: conditions read the visitor's claims/);
    assert.equal(conditionHolds('page.vars.plan == "pro"', {}), false, 'a condition that does not parse hides its content');
    assert.equal(evaluateToBoolean('visitor.claims.plan == "enterprise"', scope), true, 'pages read the visitor');
    assert.equal(evaluateToBoolean('visitor.claims.plan == "enterprise"', { space: scope.space, page: scope.page }), false, 'without a visitor, visitor is undefined');
    assert.throws(() => compile('window.alert', PAGE_DIALECT), (error: unknown) => error instanceof ExpressionSyntaxError && /expressions read space\.vars/.test(error.message));
  });

  it('is total: an expression that cannot be read is undefined, empty text and false', () => {
    for (const source of ['', 'space.vars.', '(1', 'space.vars.__proto__', 'a'.repeat(2000)]) {
      assert.equal(evaluateExpression(source, scope), undefined, source);
      assert.equal(evaluateToText(source, scope), '');
      assert.equal(evaluateToBoolean(source, scope), false);
    }
    assert.equal(holds(compile('1 / 0 > 1', PAGE_DIALECT), scope), true);
  });
});
