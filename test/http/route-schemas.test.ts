import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { invalidRouteSchemas } from '../../src/http/validation.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * The check Ajv skips when it compiles a route's schema (src/http/validation.ts: the meta-schema is not
 * compiled in every process's first request): every route's request schemas are valid JSON Schema.
 */
describe('route schemas', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
    await t.app.ready();
  });
  after(() => t.close());

  it('are valid JSON Schema, every one the routes give the validator', () => {
    const { checked, invalid } = invalidRouteSchemas();
    assert.ok(checked > 100, `only ${checked} schemas were given to the validator`);
    assert.deepEqual(invalid, []);
  });

  it('would be reported when invalid', async () => {
    const { validatorCompiler } = await import('../../src/http/validation.ts');
    validatorCompiler({ schema: { type: 'object', properties: { limit: { type: 'integer', minimum: 'one' } } }, method: 'GET', url: '/x', httpPart: 'querystring' });
    const { invalid } = invalidRouteSchemas();
    assert.equal(invalid.length, 1);
    assert.match(invalid[0], /minimum/);
  });
});
