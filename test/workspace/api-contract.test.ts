import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { OPERATIONS } from '../../web/src/api/operations.ts';

/**
 * The workspace speaks only the API Quire documents: every operation its client calls (web/src/api/
 * operations.ts) is in `/openapi.json` with that method and path, so a screen is always also a script.
 */
describe('the workspace client and /openapi.json', () => {
  let t: TestApp;
  let paths: Record<string, Record<string, unknown>>;
  before(async () => {
    t = await createTestApp('sqlite');
    const reply = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    paths = JSON.parse(reply.body).paths;
  });
  after(() => t.close());

  for (const [name, [method, path]] of Object.entries(OPERATIONS)) {
    it(`${name}: ${method} ${path} is documented`, () => {
      assert.ok(paths[path], `${path} is not in /openapi.json`);
      assert.ok(paths[path][method.toLowerCase()], `${method} ${path} is not in /openapi.json`);
    });
  }
});
