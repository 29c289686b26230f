import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import semver from 'semver';

/**
 * Every package `npm ci` installs runs on every Node.js that package.json's `engines` promises: npm prints
 * EBADENGINE for a package whose own `engines.node` leaves out the Node it installs on, and such a package
 * may use what that Node lacks. So the lowest promised Node must satisfy each installed package's range.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean }>;
};

describe('Node.js versions', () => {
  it('every locked package supports the lowest Node.js that package.json promises', () => {
    const lowest = semver.minVersion(manifest.engines.node);
    assert.ok(lowest, `package.json's engines.node (${manifest.engines.node}) names a lowest version`);
    const refused = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      if (path === '' || !range || semver.satisfies(lowest, range, { includePrerelease: true })) return [];
      return [`${path.replace(/^.*node_modules\//, '')}@${entry.version} wants Node ${range}`];
    });
    assert.deepEqual(refused, [], `these packages refuse Node ${lowest.version} (pin a release line that supports it in package.json's overrides)`);
  });
});
