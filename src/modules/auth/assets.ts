import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * The static files of the sign-in and account pages, served under /auth/assets/: Quire's own stylesheet
 * and scripts (beside this file), and the browser half of SimpleWebAuthn, copied at start from the
 * installed package's single-file bundle (it defines `SimpleWebAuthnBrowser`), so nothing comes from a CDN.
 */
export interface AuthAsset {
  body: Buffer;
  type: string;
  etag: string;
}

const OWN: Record<string, string> = {
  'auth.css': 'text/css; charset=utf-8',
  'passkeys.js': 'text/javascript; charset=utf-8',
};

let assets: Map<string, AuthAsset> | undefined;

function asset(body: Buffer, type: string): AuthAsset {
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}

function load(): Map<string, AuthAsset> {
  const map = new Map<string, AuthAsset>();
  const folder = join(import.meta.dirname, 'assets');
  for (const [name, type] of Object.entries(OWN)) map.set(name, asset(readFileSync(join(folder, name)), type));
  const require = createRequire(import.meta.url);
  const bundle = join(require.resolve('@simplewebauthn/browser').replace(/[\\/]script[\\/]index\.js$/, ''), 'dist', 'bundle', 'index.umd.min.js');
  map.set('webauthn.js', asset(readFileSync(bundle), 'text/javascript; charset=utf-8'));
  return map;
}

export function findAuthAsset(name: string): AuthAsset | undefined {
  assets ??= load();
  return assets.get(name);
}
