import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { BadRequest } from '../../src/errors.ts';
import { defaultAdaptiveSchema, templateConditions, validateAdaptiveSchema, type AdaptiveJsonSchema } from '../../src/sites/adaptive-schema.ts';
import { checkCondition, conditionHolds } from '../../src/expressions/conditions.ts';

/**
 * The client's own schema for a visitor schema (`SiteAdaptiveJSONSchema` of @gitbook/api's OpenAPI
 * document), compiled with Ajv: what Quire accepts must be something the client accepts.
 */
const require = createRequire(import.meta.url);
const spec = require('@gitbook/api/spec/openapi.json') as { components: { schemas: Record<string, unknown> } };
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'spec', components: spec.components });
const clientAccepts = ajv.compile({ $ref: 'spec#/components/schemas/SiteAdaptiveJSONSchema' });

function assertClientAccepts(schema: unknown): void {
  assert.ok(clientAccepts(schema), `the client's SiteAdaptiveJSONSchema refuses it: ${JSON.stringify(clientAccepts.errors)}`);
}

const rich = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    isEnterprise: { type: 'boolean', description: 'The visitor works for an enterprise customer.' },
    has_sso: { type: 'boolean', description: '' },
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: {
        isBetaUser: { type: 'boolean', description: 'Opted in to beta features.' },
        _internal: { type: 'boolean', description: 'Staff preview.' },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

function refusedAt(value: unknown, pointer: string, words?: RegExp): void {
  assert.throws(
    () => validateAdaptiveSchema(value),
    (error: unknown) => {
      assert.ok(error instanceof BadRequest, `expected BadRequest, got ${error}`);
      assert.ok(error.message.includes(`at "${pointer}":`), `expected the pointer ${pointer} in: ${error.message}`);
      if (words) assert.match(error.message, words);
      return true;
    },
  );
}

/** The rich example with one change made by `edit` (on a deep copy). */
function richWith(edit: (schema: any) => void): unknown {
  const copy = structuredClone(rich);
  edit(copy);
  return copy;
}

describe('the client document itself', () => {
  it('refuses what it should (the check can fail)', () => {
    assert.equal(clientAccepts({ type: 'object', properties: {}, additionalProperties: true }), false);
    assert.equal(clientAccepts({ type: 'object', properties: { a: { type: 'boolean' } }, additionalProperties: false }), false);
  });
});

describe('defaultAdaptiveSchema', () => {
  it('is the documented default, accepted by validation and by the client', () => {
    const schema = defaultAdaptiveSchema();
    assert.deepEqual(schema, {
      type: 'object',
      properties: { unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: {}, additionalProperties: false } },
      additionalProperties: false,
    });
    assert.deepEqual(validateAdaptiveSchema(schema), schema);
    assertClientAccepts(schema);
  });

  it('is a fresh object each time', () => {
    const a = defaultAdaptiveSchema();
    a.properties.unsigned!.properties.x = { type: 'boolean', description: '' };
    assert.deepEqual(defaultAdaptiveSchema().properties.unsigned!.properties, {});
  });
});

describe('validateAdaptiveSchema: accepted', () => {
  const accepted: Array<[string, unknown]> = [
    ['the rich example', rich],
    ['no $schema and no unsigned claims', { type: 'object', properties: {}, additionalProperties: false }],
    ['signed claims only', { type: 'object', properties: { a: { type: 'boolean', description: 'A' } }, additionalProperties: false }],
    ['a 64-character name', { type: 'object', properties: { ['a'.repeat(64)]: { type: 'boolean', description: 'long' } }, additionalProperties: false }],
    [
      '100 claims',
      {
        type: 'object',
        properties: {
          ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`s${i}`, { type: 'boolean', description: `s${i}` }])),
          unsigned: {
            type: 'object',
            description: 'Unsigned claims of the site visitor.',
            properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`u${i}`, { type: 'boolean', description: `u${i}` }])),
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    ],
  ];
  for (const [name, value] of accepted) {
    it(`accepts ${name}, and the client accepts the result`, () => {
      const schema = validateAdaptiveSchema(value);
      assert.deepEqual(schema, value);
      assertClientAccepts(schema);
    });
  }

  it('returns a copy: changing the input afterwards does not change the result', () => {
    const input = structuredClone(rich);
    const schema = validateAdaptiveSchema(input);
    input.properties.isEnterprise.description = 'changed';
    assert.equal((schema.properties.isEnterprise as { description: string }).description, 'The visitor works for an enterprise customer.');
  });
});

describe('validateAdaptiveSchema: refused, naming the pointer', () => {
  const claim = { type: 'boolean', description: 'd' };
  const refused: Array<[string, unknown, string, RegExp?]> = [
    ['not an object', 'schema', '', /must be an object/],
    ['an array', [], '', /must be an object/],
    ['null', null, '', /must be an object/],
    ['another $schema', richWith((s) => (s.$schema = 'https://json-schema.org/draft/2020-12/schema')), '/$schema', /draft-07/],
    ['type array', richWith((s) => (s.type = 'array')), '/type', /"object"/],
    ['no type', richWith((s) => delete s.type), '/type'],
    ['additionalProperties true', richWith((s) => (s.additionalProperties = true)), '/additionalProperties', /false/],
    ['no additionalProperties', richWith((s) => delete s.additionalProperties), '/additionalProperties'],
    ['no properties', richWith((s) => delete s.properties), '/properties', /must be an object/],
    ['properties an array', richWith((s) => (s.properties = [])), '/properties', /must be an object/],
    ['an unknown root keyword', richWith((s) => (s.required = ['a'])), '/required', /not allowed/],
    ['a string claim', richWith((s) => (s.properties.plan = { type: 'string', description: 'Plan' })), '/properties/plan/type', /boolean/],
    ['a claim without description', richWith((s) => (s.properties.flag = { type: 'boolean' })), '/properties/flag/description', /description/],
    ['a claim with a number description', richWith((s) => (s.properties.flag = { type: 'boolean', description: 1 })), '/properties/flag/description'],
    ['a claim with an extra keyword', richWith((s) => (s.properties.flag = { ...claim, default: true })), '/properties/flag/default', /not allowed/],
    ['a claim that is not an object', richWith((s) => (s.properties.flag = true)), '/properties/flag', /must be an object/],
    ['a claim name with a dash', richWith((s) => (s.properties['is-beta'] = claim)), '/properties/is-beta', /claim name/],
    ['a claim name starting with a digit', richWith((s) => (s.properties['1st'] = claim)), '/properties/1st', /claim name/],
    ['a claim name with a slash (escaped in the pointer)', richWith((s) => (s.properties['a/b~c'] = claim)), '/properties/a~1b~0c', /claim name/],
    ['a 65-character name', richWith((s) => (s.properties['a'.repeat(65)] = claim)), `/properties/${'a'.repeat(65)}`],
    ['a claim named constructor', richWith((s) => (s.properties.constructor = claim)), '/properties/constructor', /reserved/],
    ['a claim named __proto__ (from JSON)', JSON.parse('{"type":"object","properties":{"__proto__":{"type":"boolean","description":"x"}},"additionalProperties":false}'), '/properties/__proto__', /reserved/],
    ['unsigned with another description', richWith((s) => (s.properties.unsigned.description = 'Mine')), '/properties/unsigned/description', /Unsigned claims of the site visitor\./],
    ['unsigned without properties', richWith((s) => delete s.properties.unsigned.properties), '/properties/unsigned/properties', /must be an object/],
    ['unsigned with additionalProperties true', richWith((s) => (s.properties.unsigned.additionalProperties = true)), '/properties/unsigned/additionalProperties'],
    ['unsigned of type boolean', richWith((s) => (s.properties.unsigned = claim)), '/properties/unsigned/type'],
    ['unsigned with an extra keyword', richWith((s) => (s.properties.unsigned.title = 'x')), '/properties/unsigned/title', /not allowed/],
    ['an unsigned number claim', richWith((s) => (s.properties.unsigned.properties.n = { type: 'number', description: 'n' })), '/properties/unsigned/properties/n/type'],
    ['an unsigned bad name', richWith((s) => (s.properties.unsigned.properties['a b'] = claim)), '/properties/unsigned/properties/a b', /claim name/],
    [
      '101 claims',
      richWith((s) => {
        for (let i = 0; i < 97; i++) s.properties[`c${i}`] = claim;
      }),
      '/properties',
      /101 claims; at most 100/,
    ],
  ];
  for (const [name, value, pointer, words] of refused) {
    it(`refuses ${name} at "${pointer}"`, () => refusedAt(value, pointer, words));
  }
});

describe('templateConditions', () => {
  it('derives true, not-true and one combined template from the rich example', () => {
    const templates = templateConditions(validateAdaptiveSchema(rich));
    assert.deepEqual(
      templates.map((t) => t.condition),
      [
        'visitor.claims.isEnterprise == true',
        'visitor.claims.isEnterprise != true',
        'visitor.claims.has_sso == true',
        'visitor.claims.has_sso != true',
        'visitor.claims.unsigned.isBetaUser == true',
        'visitor.claims.unsigned.isBetaUser != true',
        'visitor.claims.unsigned._internal == true',
        'visitor.claims.unsigned._internal != true',
        'visitor.claims.isEnterprise == true && visitor.claims.has_sso == true',
      ],
    );
    assert.equal(templates[0].description, 'Visitors whose signed claim isEnterprise is true');
    assert.equal(templates[4].description, 'Visitors whose unsigned claim isBetaUser is true');
    for (const template of templates) {
      assert.doesNotThrow(() => checkCondition(template.condition));
      assert.ok(template.description.length > 0);
    }
  });

  it('templates mean what they say', () => {
    const [isTrue, notTrue] = templateConditions(validateAdaptiveSchema(rich));
    assert.equal(conditionHolds(isTrue.condition, { isEnterprise: true }), true);
    assert.equal(conditionHolds(isTrue.condition, { isEnterprise: false }), false);
    assert.equal(conditionHolds(notTrue.condition, {}), true);
    assert.equal(conditionHolds(notTrue.condition, { isEnterprise: true }), false);
  });

  it('has no combined template with a single claim, and none at all without claims', () => {
    const one: AdaptiveJsonSchema = { type: 'object', properties: { a: { type: 'boolean', description: 'A' } }, additionalProperties: false };
    assert.deepEqual(
      templateConditions(one).map((t) => t.condition),
      ['visitor.claims.a == true', 'visitor.claims.a != true'],
    );
    assert.deepEqual(templateConditions(defaultAdaptiveSchema()), []);
  });

  it('checks for every claim name the schema accepts, even odd ones', () => {
    const names = ['_', 'true', 'null', 'includes', 'length', 'in', 'A1_b2', 'x'.repeat(64)];
    const schema = validateAdaptiveSchema({
      type: 'object',
      properties: {
        ...Object.fromEntries(names.map((n) => [n, { type: 'boolean', description: n }])),
        unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: Object.fromEntries(names.map((n) => [n, { type: 'boolean', description: n }])), additionalProperties: false },
      },
      additionalProperties: false,
    });
    assertClientAccepts(schema);
    const templates = templateConditions(schema);
    assert.equal(templates.length, names.length * 4 + 1);
    for (const template of templates) assert.doesNotThrow(() => checkCondition(template.condition), template.condition);
    assert.equal(conditionHolds('visitor.claims.true == true', { true: true }), true);
  });
});
