import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { ManualClock } from '../../src/clock.ts';
import { readsPublished } from '../../src/policy/site.ts';
import { hashToken, SecretBox } from '../../src/secrets.ts';
import {
  anonymousVisitor,
  newShareKey,
  newVisitorAuthKey,
  readVisitorAuthKey,
  shareKeyActive,
  shareKeyHash,
  siteAudience,
  unsignedClaimsFromQuery,
  verifyVisitorJwt,
  visitorClaims,
  type Visitor,
} from '../../src/sites/visitor.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld } from '../helpers/factories.ts';

const clock = new ManualClock(new Date('2026-03-01T09:00:00.000Z'));
const ctx = { secrets: new SecretBox(randomBytes(32)), clock };
const key = newVisitorAuthKey();
const site = { auth_key: ctx.secrets.encrypt(key) };
const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A visitor JWT as a site's backend would sign it: HS256 with the key as shown to the site's admin. */
async function sign(claims: Record<string, unknown>, options: { key?: string; alg?: string; expiresIn?: number | null } = {}): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'HS256' }).setIssuedAt(nowSeconds());
  if (options.expiresIn !== null) jwt.setExpirationTime(nowSeconds() + (options.expiresIn ?? 3600));
  return jwt.sign(new TextEncoder().encode(options.key ?? key));
}

describe('visitor auth key', () => {
  it('is 256 random bits in hex, different each time', () => {
    const a = newVisitorAuthKey();
    assert.match(a, /^[0-9a-f]{64}$/);
    assert.notEqual(a, newVisitorAuthKey());
  });

  it('is read back from its sealed form', () => {
    assert.notEqual(site.auth_key, key);
    assert.equal(readVisitorAuthKey(ctx, site.auth_key), key);
  });
});

describe('verifyVisitorJwt', () => {
  it('returns the claims of a valid token, without the claims about the token', async () => {
    const token = await new SignJWT({ plan: 'pro', roles: ['admin'], isBeta: true })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(nowSeconds())
      .setNotBefore(nowSeconds() - 10)
      .setExpirationTime(nowSeconds() + 60)
      .setJti('token-1')
      .setAudience('docs')
      .setSubject('user-7')
      .setIssuer('acme')
      .sign(new TextEncoder().encode(key));
    assert.deepEqual(await verifyVisitorJwt(ctx, site, token), { plan: 'pro', roles: ['admin'], isBeta: true, sub: 'user-7', iss: 'acme' });
  });

  it('follows the context clock: valid now, refused once it has expired', async () => {
    const token = await sign({ plan: 'pro' }, { expiresIn: 60 });
    assert.deepEqual(await verifyVisitorJwt(ctx, site, token), { plan: 'pro' });
    const later = { ...ctx, clock: new ManualClock(new Date(clock.now().getTime() + 60_000 + 31_000)) };
    assert.equal(await verifyVisitorJwt(later, site, token), null);
  });

  it('allows 30 seconds of clock drift after expiry, not more', async () => {
    const justExpired = await sign({ plan: 'pro' }, { expiresIn: -20 });
    assert.deepEqual(await verifyVisitorJwt(ctx, site, justExpired), { plan: 'pro' });
    const expired = await sign({ plan: 'pro' }, { expiresIn: -40 });
    assert.equal(await verifyVisitorJwt(ctx, site, expired), null);
  });

  it('refuses a token without exp', async () => {
    assert.equal(await verifyVisitorJwt(ctx, site, await sign({ plan: 'pro' }, { expiresIn: null })), null);
  });

  it('refuses a token not valid yet (nbf beyond the tolerance)', async () => {
    const token = await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setNotBefore(nowSeconds() + 600).setExpirationTime(nowSeconds() + 3600).sign(new TextEncoder().encode(key));
    assert.equal(await verifyVisitorJwt(ctx, site, token), null);
  });

  it('refuses a forged signature', async () => {
    const token = await sign({ plan: 'pro' });
    const [header, , signature] = token.split('.');
    const forgedPayload = base64url({ plan: 'enterprise', exp: nowSeconds() + 3600 });
    assert.equal(await verifyVisitorJwt(ctx, site, `${header}.${forgedPayload}.${signature}`), null);
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    assert.equal(await verifyVisitorJwt(ctx, site, `${header}.${token.split('.')[1]}.${flipped}`), null);
  });

  it('refuses a token signed with another key', async () => {
    assert.equal(await verifyVisitorJwt(ctx, site, await sign({ plan: 'pro' }, { key: newVisitorAuthKey() })), null);
  });

  it('refuses another algorithm, even with the right key', async () => {
    assert.equal(await verifyVisitorJwt(ctx, site, await sign({ plan: 'pro' }, { alg: 'HS512' })), null);
  });

  it('refuses alg "none"', async () => {
    const token = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ plan: 'pro', exp: nowSeconds() + 3600 })}.`;
    assert.equal(await verifyVisitorJwt(ctx, site, token), null);
  });

  it('refuses malformed tokens', async () => {
    for (const token of ['', 'abc', 'a.b.c', 'a.b', '...', `${base64url({ alg: 'HS256' })}.not-json.sig`, 'é.é.é']) {
      assert.equal(await verifyVisitorJwt(ctx, site, token), null, token);
    }
  });

  it('refuses everything when the site key cannot be unsealed', async () => {
    const token = await sign({ plan: 'pro' });
    const otherBox = { ...ctx, secrets: new SecretBox(randomBytes(32)) };
    assert.equal(await verifyVisitorJwt(otherBox, site, token), null);
  });

  it('does not turn a "__proto__" claim into a prototype', async () => {
    const claims = await verifyVisitorJwt(ctx, site, await sign(JSON.parse('{"__proto__": {"admin": true}, "plan": "pro"}')));
    assert.deepEqual(claims, { plan: 'pro' });
    assert.equal(Object.getPrototypeOf(claims), Object.prototype);
  });
});

describe('unsignedClaimsFromQuery', () => {
  it('reads visitor.<name> parameters, typing true, false and numbers', () => {
    assert.deepEqual(
      unsignedClaimsFromQuery({ 'visitor.isBeta': 'true', 'visitor.trial': 'false', 'visitor.seats': '12', 'visitor.ratio': '-0.5', 'visitor.plan': 'pro', page: '2', q: 'visitor.x' }),
      { isBeta: true, trial: false, seats: 12, ratio: -0.5, plan: 'pro' },
    );
  });

  it('keeps strings that only look like numbers or booleans', () => {
    assert.deepEqual(unsignedClaimsFromQuery({ 'visitor.a': 'True', 'visitor.b': '1e3', 'visitor.c': '007', 'visitor.d': '', 'visitor.e': ' 1', 'visitor.f': '0x10' }), {
      a: 'True',
      b: '1e3',
      c: '007',
      d: '',
      e: ' 1',
      f: '0x10',
    });
  });

  it('ignores names that are not claim names, and values that are not strings', () => {
    assert.deepEqual(
      unsignedClaimsFromQuery({ 'visitor.': 'x', 'visitor.a-b': 'x', 'visitor.1a': 'x', 'visitor.a.b': 'x', 'visitor.__proto__': 'x', 'visitor.constructor': 'x', [`visitor.${'a'.repeat(65)}`]: 'x', 'visitor.obj': { a: 1 }, 'visitor.ok': 'yes' }),
      { ok: 'yes' },
    );
  });

  it('keeps the first value of a repeated parameter', () => {
    assert.deepEqual(unsignedClaimsFromQuery({ 'visitor.plan': ['pro', 'free'] }), { plan: 'pro' });
  });

  it('keeps at most 50 claims', () => {
    const query = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`visitor.c${i}`, 'true']));
    const claims = unsignedClaimsFromQuery(query);
    assert.equal(Object.keys(claims).length, 50);
    assert.equal(claims.c0, true);
    assert.equal(claims.c49, true);
    assert.equal(claims.c50, undefined);
  });
});

describe('visitorClaims', () => {
  it('puts unsigned claims under unsigned only', () => {
    assert.deepEqual(visitorClaims({ plan: 'pro' }, { plan: 'free', isBeta: true }), { plan: 'pro', unsigned: { plan: 'free', isBeta: true } });
    assert.deepEqual(visitorClaims(null, { isBeta: true }), { unsigned: { isBeta: true } });
    assert.deepEqual(visitorClaims(null, {}), { unsigned: {} });
  });

  it('keeps signed claims authoritative, even one named unsigned', () => {
    assert.deepEqual(visitorClaims({ unsigned: { isBeta: false } }, { isBeta: true, lang: 'fr' }), { unsigned: { isBeta: false, lang: 'fr' } });
    assert.deepEqual(visitorClaims({ unsigned: 'signed' }, { isBeta: true }), { unsigned: 'signed' });
  });

  it('does not change its arguments', () => {
    const signed = { plan: 'pro' };
    const unsigned = { isBeta: true };
    visitorClaims(signed, unsigned).unsigned = 'changed';
    assert.deepEqual(signed, { plan: 'pro' });
    assert.deepEqual(unsigned, { isBeta: true });
  });
});

describe('siteAudience', () => {
  const shared: Visitor = { claims: {}, authenticated: false, sharedWith: true };
  const authenticated: Visitor = { claims: { plan: 'pro' }, authenticated: true, sharedWith: false };

  it('describes the reader for readsPublished', () => {
    assert.deepEqual(siteAudience({ published: 1, visibility: 'share-link' }, shared, false), {
      member: false,
      published: true,
      visibility: 'share-link',
      sharedWith: true,
      authenticated: false,
    });
  });

  const cases: Array<[string, { published: number; visibility: string }, Visitor, boolean, boolean]> = [
    ['anyone reads a published public site', { published: 1, visibility: 'public' }, anonymousVisitor, false, true],
    ['anyone reads a published unlisted site', { published: 1, visibility: 'unlisted' }, anonymousVisitor, false, true],
    ['nobody reads an unpublished site', { published: 0, visibility: 'public' }, authenticated, false, false],
    ['a member reads an unpublished site', { published: 0, visibility: 'public' }, anonymousVisitor, true, true],
    ['a share-link site needs a share key', { published: 1, visibility: 'share-link' }, anonymousVisitor, false, false],
    ['a share key opens a share-link site', { published: 1, visibility: 'share-link' }, shared, false, true],
    ['a share key does not open a visitor-auth site', { published: 1, visibility: 'visitor-auth' }, shared, false, false],
    ['a visitor JWT opens a visitor-auth site', { published: 1, visibility: 'visitor-auth' }, authenticated, false, true],
    ['an unknown visibility opens to nobody', { published: 1, visibility: 'everyone' }, authenticated, false, false],
  ];
  for (const [name, row, visitor, member, reads] of cases) {
    it(name, () => assert.equal(readsPublished(siteAudience(row, visitor, member)), reads));
  }

  it('anonymous visitors hold nothing', () => {
    assert.deepEqual(anonymousVisitor, { claims: {}, authenticated: false, sharedWith: false });
  });
});

describe('share keys', () => {
  it('are at least 128 random bits, URL-safe', () => {
    const keyA = newShareKey();
    assert.match(keyA, /^[A-Za-z0-9_-]{22,}$/);
    assert.ok(Buffer.from(keyA, 'base64url').length >= 16);
    assert.notEqual(keyA, newShareKey());
    assert.equal(shareKeyHash(keyA), hashToken(keyA));
    assert.notEqual(shareKeyHash(keyA), keyA);
  });
});

for (const dialect of dialects) {
  describe(`shareKeyActive [${dialect}]`, () => {
    let t: TestApp;
    let siteId: string;
    let otherSiteId: string;
    const activeKey = newShareKey();
    const inactiveKey = newShareKey();
    const otherSiteKey = newShareKey();

    async function insertSite(organizationId: string, basename: string): Promise<string> {
      const id = `site_${randomBytes(6).toString('hex')}`;
      const now = t.clock.now().toISOString();
      await t.ctx.db
        .insertInto('sites')
        .values({
          id,
          organization_id: organizationId,
          type: 'basic',
          title: 'Docs',
          visibility: 'share-link',
          published: 1,
          basename,
          hostname: null,
          proxy: null,
          agents_context: '',
          adaptive_enabled: 0,
          adaptive_schema: null,
          adaptive_schema_updated_at: null,
          auth_key: t.ctx.secrets.encrypt(newVisitorAuthKey()),
          auth_fallback_url: null,
          default_section_id: null,
          default_site_space_id: null,
          created_by: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      return id;
    }

    async function insertShareLink(site: string, key: string, active: number): Promise<void> {
      await t.ctx.db
        .insertInto('site_share_links')
        .values({
          id: `link_${randomBytes(6).toString('hex')}`,
          site_id: site,
          name: 'Partners',
          key_hash: shareKeyHash(key),
          key_sealed: t.ctx.secrets.encrypt(key),
          active,
          created_by: null,
          created_at: t.clock.now().toISOString(),
        })
        .execute();
    }

    before(async () => {
      t = await createTestApp(dialect);
      const world = await createWorld(t.ctx, t.app, t.clock);
      siteId = await insertSite(world.organizationId, 'docs');
      otherSiteId = await insertSite(world.organizationId, 'other');
      await insertShareLink(siteId, activeKey, 1);
      await insertShareLink(siteId, inactiveKey, 0);
      await insertShareLink(otherSiteId, otherSiteKey, 1);
    });
    after(() => t.close());

    it('accepts an active key of the site', async () => {
      assert.equal(await shareKeyActive(t.ctx, siteId, activeKey), true);
    });

    it('refuses a deactivated key', async () => {
      assert.equal(await shareKeyActive(t.ctx, siteId, inactiveKey), false);
    });

    it("refuses another site's key, and the site's key on another site", async () => {
      assert.equal(await shareKeyActive(t.ctx, siteId, otherSiteKey), false);
      assert.equal(await shareKeyActive(t.ctx, otherSiteId, activeKey), false);
      assert.equal(await shareKeyActive(t.ctx, otherSiteId, otherSiteKey), true);
    });

    it('refuses unknown, empty keys and the stored hash itself', async () => {
      assert.equal(await shareKeyActive(t.ctx, siteId, newShareKey()), false);
      assert.equal(await shareKeyActive(t.ctx, siteId, ''), false);
      assert.equal(await shareKeyActive(t.ctx, siteId, shareKeyHash(activeKey)), false);
    });
  });
}
