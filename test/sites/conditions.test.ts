import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BadRequest } from '../../src/errors.ts';
import { LruCache } from '../../src/lru.ts';
import {
  checkCondition,
  conditionCacheSize,
  conditionHolds,
  ConditionSyntaxError,
  evaluateCondition,
  MAX_CONDITION_DEPTH,
  MAX_CONDITION_LENGTH,
  parseCondition,
} from '../../src/expressions/conditions.ts';

const claims: Record<string, unknown> = {
  plan: 'enterprise',
  trial: false,
  seats: 12,
  ratio: 0.5,
  roles: ['admin', 'editor'],
  ids: [1, 2, 3],
  email: 'ada@acme.test',
  nothing: null,
  nested: { team: { name: 'docs' }, 'odd key': 'yes' },
  unsigned: { isBetaUser: true, language: 'fr' },
};

function holds(source: string, over: Record<string, unknown> = claims): boolean {
  return evaluateCondition(parseCondition(source), { visitor: { claims: over } });
}

function syntaxError(source: string): ConditionSyntaxError {
  try {
    parseCondition(source);
  } catch (error) {
    assert.ok(error instanceof ConditionSyntaxError, `expected a ConditionSyntaxError for ${source}, got ${error}`);
    return error;
  }
  assert.fail(`expected ${JSON.stringify(source)} not to parse`);
}

describe('conditions: values', () => {
  const cases: Array<[string, boolean]> = [
    // The examples of GitBook's adaptive content.
    ['visitor.claims.unsigned.isBetaUser == true', true],
    ['visitor.claims.plan === "enterprise" && !visitor.claims.trial', true],
    ['visitor.claims.roles.includes("admin")', true],
    ['visitor.claims.seats >= 10', true],
    // Literals.
    ['true', true],
    ['false', false],
    ['null', false],
    ['undefined', false],
    ['0', false],
    ['1', true],
    ['""', false],
    ["'x'", true],
    ['[]', true],
    ['1.5e1 == 15', true],
    ['.5 == 0.5', true],
    ['"a\\"b" == \'a"b\'', true],
    ['"\\u0041\\x42\\u{43}\\n" == "ABC\\n"', true],
    ['"\\q" == "q"', true],
    // Member access.
    ['visitor.claims["plan"] == "enterprise"', true],
    ["visitor['claims'].plan == 'enterprise'", true],
    ['visitor.claims.roles[0] == "admin"', true],
    ['visitor.claims.roles[1] == "editor"', true],
    ['visitor.claims.roles[2] == undefined', true],
    ['visitor.claims.roles[visitor.claims.ids[0]] == "editor"', true],
    ['visitor.claims.nested["odd key"] == "yes"', true],
    ['visitor.claims.nested.team.name == "docs"', true],
    ['visitor.claims.roles.length == 2', true],
    ['visitor.claims.plan.length == 10', true],
    ['visitor.claims[visitor.claims.plan] == undefined', true],
    // Missing things are undefined, never an error.
    ['visitor.claims.missing', false],
    ['visitor.claims.missing.deeper.still', false],
    ['visitor.claims.missing == undefined', true],
    ['visitor.claims.missing == null', true],
    ['visitor.claims.missing === null', false],
    ['visitor.claims.nothing.field == undefined', true],
    ['visitor.claims.seats.toFixed == undefined', true],
    ['visitor.claims.plan.toUpperCase == undefined', true],
    ['visitor.claims.roles.map == undefined', true],
    ['visitor.claims.hasOwnProperty == undefined', true],
    ['visitor.claims.missing.includes("x")', false],
    // Not and negation.
    ['!visitor.claims.trial', true],
    ['!!visitor.claims.plan', true],
    ['!visitor.claims.missing', true],
    ['-visitor.claims.seats == -12', true],
    ['- -3 == 3', true],
    ['-visitor.claims.plan == 0', false],
    // Equality: == is strict except null == undefined.
    ['visitor.claims.seats == 12', true],
    ['visitor.claims.seats == "12"', false],
    ['visitor.claims.seats != "12"', true],
    ['visitor.claims.trial == 0', false],
    ['visitor.claims.nothing == undefined', true],
    ['visitor.claims.nothing != undefined', false],
    ['visitor.claims.nothing === undefined', false],
    ['visitor.claims.nothing !== undefined', true],
    ['visitor.claims.plan !== "enterprise"', false],
    ['visitor.claims.plan === "enterprise"', true],
    ['[1] == [1]', false],
    // Ordering: two numbers or two strings only.
    ['visitor.claims.seats > 11', true],
    ['visitor.claims.seats > 12', false],
    ['visitor.claims.seats <= 12', true],
    ['visitor.claims.seats < 12', false],
    ['visitor.claims.ratio < 1', true],
    ['"b" > "a"', true],
    ['"a" >= "b"', false],
    ['visitor.claims.seats > "1"', false],
    ['visitor.claims.seats < "100"', false],
    ['visitor.claims.missing < 1', false],
    ['visitor.claims.nothing >= 0', false],
    ['true > false', false],
    // Logic, precedence, parentheses.
    ['visitor.claims.trial || visitor.claims.seats > 10', true],
    ['visitor.claims.trial && visitor.claims.seats > 10', false],
    ['false || false', false],
    ['true || false && false', true],
    ['(true || false) && false', false],
    ['!(visitor.claims.seats > 10)', false],
    ['!visitor.claims.seats > 10', false],
    ['1 < 2 == true', true],
    // Methods.
    ['visitor.claims.roles.includes("owner")', false],
    ['visitor.claims.ids.includes(2)', true],
    ['visitor.claims.ids.includes("2")', false],
    ['["free", "pro"].includes(visitor.claims.plan)', false],
    ['["free", "enterprise",].includes(visitor.claims.plan)', true],
    ['visitor.claims.email.endsWith("@acme.test")', true],
    ['visitor.claims.email.startsWith("ada@")', true],
    ['visitor.claims.email.startsWith("bob@")', false],
    ['visitor.claims.email.includes("acme")', true],
    ['visitor.claims.unsigned.language.startsWith("f") && visitor.claims.unsigned.isBetaUser', true],
    // A method on the wrong kind of value makes the whole condition false (fail closed), even negated.
    ['!visitor.claims.missing.includes("x")', false],
    ['!visitor.claims.seats.startsWith("1")', false],
    ['!visitor.claims.email.includes(1)', false],
    ['!visitor.claims.roles.endsWith("r")', false],
    ['visitor.claims.nested.includes("team")', false],
  ];
  for (const [source, expected] of cases) {
    it(`${source} → ${expected}`, () => {
      assert.equal(holds(source), expected);
      assert.equal(conditionHolds(source, claims), expected);
    });
  }

  it('is false over claims that are not there at all', () => {
    for (const source of ['visitor.claims.plan == "enterprise"', 'visitor.claims.a.b.c', 'visitor.claims.roles.includes("admin")']) {
      assert.equal(holds(source, {}), false);
    }
  });

  it('reads only own data: a claims object with a getter or a function does not run them', () => {
    let called = false;
    const tricky = Object.defineProperty({ fn: () => true }, 'getter', {
      enumerable: true,
      get() {
        called = true;
        return true;
      },
    });
    assert.equal(holds('visitor.claims.getter', tricky), false);
    assert.equal(holds('visitor.claims.fn', tricky), false);
    assert.equal(called, false);
  });

  it('never reads through a computed forbidden key, nor a "__proto__" own property from JSON', () => {
    const fromJson = JSON.parse('{"__proto__": {"admin": true}, "key": "__proto__"}') as Record<string, unknown>;
    assert.equal(holds('visitor.claims[visitor.claims.key]', fromJson), false);
    assert.equal(holds('visitor.claims.admin', fromJson), false);
    assert.equal(holds('visitor.claims[visitor.claims.key] == undefined', fromJson), true);
  });
});

describe('conditions: syntax errors', () => {
  const cases: Array<[string, RegExp, number]> = [
    ['foo', /^Unknown name "foo" at column 1: conditions read the visitor's claims, e\.g\. visitor\.claims\.plan\.$/, 1],
    ['visitor.claims.a == window', /Unknown name "window"/, 21],
    ['this.x', /Unknown name "this"/, 1],
    ['visitor.claims.__proto__', /"__proto__" cannot be read/, 16],
    ['visitor.claims.constructor', /"constructor" cannot be read/, 16],
    ['visitor.claims.x.prototype', /"prototype" cannot be read/, 18],
    ['visitor.claims["__proto__"]', /"__proto__" cannot be read/, 16],
    ["visitor['constructor']", /"constructor" cannot be read/, 9],
    ['(visitor.claims.a', /^Expected "\)" at column 18\.$/, 18],
    ['(visitor.claims.seats > 1 && true', /^Expected "\)" at column 34\.$/, 34],
    ['visitor.claims.roles[0', /Expected "\]"/, 23],
    ['visitor.claims.a = 1', /Unexpected "=".*cannot assign/, 18],
    ['visitor.claims.a & 1', /Unexpected "&".*"&&"/, 18],
    ['visitor.claims.a # 1', /Unexpected character "#"/, 18],
    ['visitor.claims.a == "open', /Unterminated string/, 21],
    ['"\\u12"', /Invalid escape/, 2],
    ['visitor.claims.a == 10px', /Invalid number "10p"/, 21],
    ['visitor.claims.a visitor', /Unexpected "visitor".*expected an operator/, 18],
    ['visitor.claims.a ==', /ends too early/, 20],
    ['visitor.', /Expected a property name after "\."/, 9],
    ['visitor.claims.f(1)', /"f" cannot be called.*only \.includes/, 16],
    ['visitor(1)', /Unexpected "\(".*only \.includes/, 8],
    ['visitor.claims.plan.toUpperCase()', /"toUpperCase" cannot be called/, 21],
    ['visitor.claims.roles.includes()', /takes one argument/, 30],
    ['visitor.claims.roles.includes("a", "b")', /takes one argument/, 34],
    ['&& true', /Unexpected "&&".*expected a value/, 1],
    ['', /The condition is empty/, 1],
    ['   ', /The condition is empty/, 1],
    ['visitor.claims.a in visitor.claims', /Unexpected "in"/, 18],
  ];
  for (const [source, message, column] of cases) {
    it(`${JSON.stringify(source)} is refused at column ${column}`, () => {
      const error = syntaxError(source);
      assert.match(error.message, message);
      assert.equal(error.column, column);
      assert.match(error.message, new RegExp(`at column ${column}\\b`));
    });
  }

  it('refuses a condition longer than 1024 characters', () => {
    const long = `visitor.claims.plan == "${'x'.repeat(MAX_CONDITION_LENGTH)}"`;
    assert.match(syntaxError(long).message, /too long.*1024/);
    const exactly = `visitor.claims.plan == "${'x'.repeat(MAX_CONDITION_LENGTH - 25)}"`;
    assert.equal(exactly.length, MAX_CONDITION_LENGTH);
    assert.doesNotThrow(() => parseCondition(exactly));
  });

  it(`refuses nesting deeper than ${MAX_CONDITION_DEPTH} levels, and accepts nesting just under it`, () => {
    const nest = (n: number) => `${'('.repeat(n)}true${')'.repeat(n)}`;
    assert.doesNotThrow(() => parseCondition(nest(MAX_CONDITION_DEPTH - 1)));
    assert.match(syntaxError(nest(MAX_CONDITION_DEPTH + 1)).message, /nests too deeply/);
    assert.match(syntaxError(`${'!'.repeat(200)}true`).message, /nests too deeply/);
    assert.match(syntaxError(`${'['.repeat(100)}${']'.repeat(100)}`).message, /nests too deeply/);
    assert.match(syntaxError(`visitor${'[visitor'.repeat(100)}${']'.repeat(100)}`).message, /nests too deeply/);
  });

  it('does not count a long flat chain of operators or properties as nesting', () => {
    const chain = Array.from({ length: 120 }, () => 'true').join(' && ');
    assert.ok(chain.length <= MAX_CONDITION_LENGTH);
    assert.equal(holds(chain), true);
    const path = `visitor.claims${'.a'.repeat(400)}`;
    assert.equal(holds(`${path} == undefined`), true);
  });
});

describe('checkCondition', () => {
  it('accepts a valid condition', () => {
    assert.doesNotThrow(() => checkCondition('visitor.claims.plan == "pro"'));
  });

  it('throws BadRequest with the column', () => {
    assert.throws(
      () => checkCondition('(visitor.claims.a'),
      (error: unknown) => error instanceof BadRequest && error.status === 400 && error.message === 'The condition is not valid: Expected ")" at column 18.',
    );
    assert.throws(() => checkCondition('plan == "pro"'), (error: unknown) => error instanceof BadRequest && /Unknown name "plan" at column 1/.test(error.message));
  });
});

describe('conditionHolds', () => {
  it('holds when there is no condition', () => {
    for (const none of [null, undefined, '']) assert.equal(conditionHolds(none, {}), true);
  });

  it('does not hold when the condition does not parse, every time (failures are cached too)', () => {
    assert.equal(conditionHolds('visitor.claims.(', claims), false);
    assert.equal(conditionHolds('visitor.claims.(', claims), false);
    assert.equal(conditionHolds('x'.repeat(5000), claims), false);
  });

  it('answers from the cache for the same source with other claims', () => {
    const source = 'visitor.claims.plan == "pro"';
    assert.equal(conditionHolds(source, { plan: 'pro' }), true);
    assert.equal(conditionHolds(source, { plan: 'free' }), false);
    assert.equal(conditionHolds(source, { plan: 'pro' }), true);
  });

  it('keeps at most 1000 parsed conditions', () => {
    for (let i = 0; i < 1500; i++) assert.equal(conditionHolds(`visitor.claims.n == ${i}`, { n: i }), true);
    assert.equal(conditionCacheSize(), 1000);
    assert.equal(conditionHolds('visitor.claims.n == 3', { n: 3 }), true);
  });
});

describe('LruCache', () => {
  it('drops the least recently used entry', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.get('a'), 1);
    cache.set('c', 3);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.get('c'), 3);
    assert.equal(cache.size, 2);
  });
});
