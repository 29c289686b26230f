import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import type { NewPage } from '../../src/content/writer.ts';
import type { TestUser } from '../helpers/factories.ts';

/**
 * Published sites for the reader's tests, built through the sites API as an administrator would, and
 * fetched as a browser would (HTML, cookies, redirects) with app.inject.
 */

export interface SiteHandle {
  id: string;
  /** The published address by path, without the origin (e.g. /sites/{org}/{basename}). */
  root: string;
  /** Absolute published URL. */
  url: string;
}

function ok(reply: { status: number; body: unknown }, what: string): void {
  assert.ok(reply.status >= 200 && reply.status < 300, `${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
}

export async function createSite(admin: TestUser, organizationId: string, body: { title: string; visibility?: string; spaces: string[] }): Promise<SiteHandle> {
  const created = await admin.api.post(`/v1/orgs/${organizationId}/sites`, body);
  ok(created, 'create site');
  const published = await admin.api.post(`/v1/orgs/${organizationId}/sites/${created.body.id}/publish`);
  ok(published, 'publish site');
  const site = await admin.api.get(`/v1/orgs/${organizationId}/sites/${created.body.id}`);
  const url = site.body.urls.published as string;
  return { id: created.body.id, url, root: new URL(url).pathname };
}

export async function addSection(admin: TestUser, organizationId: string, siteId: string, spaceId: string, title: string): Promise<{ id: string; path: string }> {
  const reply = await admin.api.post(`/v1/orgs/${organizationId}/sites/${siteId}/sections`, { spaceId, title });
  ok(reply, 'create section');
  return { id: reply.body.id, path: reply.body.path };
}

export async function addVariant(admin: TestUser, organizationId: string, siteId: string, spaceId: string, sectionId?: string): Promise<{ id: string; path: string }> {
  const reply = await admin.api.post(`/v1/orgs/${organizationId}/sites/${siteId}/site-spaces`, { spaceId, ...(sectionId ? { sectionId } : {}) });
  ok(reply, 'create site space');
  return { id: reply.body.id, path: reply.body.path };
}

export async function patchSite(admin: TestUser, organizationId: string, siteId: string, suffix: string, body: unknown): Promise<any> {
  const reply = await admin.api.patch(`/v1/orgs/${organizationId}/sites/${siteId}${suffix}`, body);
  ok(reply, `PATCH ${suffix}`);
  return reply.body;
}

export interface Fetched {
  status: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
  /** The Set-Cookie headers, as name=value pairs (for sending back) and their whole text. */
  cookies: Array<{ pair: string; header: string }>;
}

/** GET as a browser: optional cookies and host; redirects are returned, not followed. */
export async function browse(app: FastifyInstance, url: string, options: { cookie?: string; host?: string; headers?: Record<string, string> } = {}): Promise<Fetched> {
  const response = await app.inject({
    method: 'GET',
    url,
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...(options.host ? { host: options.host } : {}), ...options.headers },
  });
  const raw = response.headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
  return {
    status: response.statusCode,
    body: response.body,
    headers: response.headers,
    cookies: list.map((header) => ({ pair: header.split(';')[0], header })),
  };
}

/** A visitor JWT signed (HS256) with `key`. */
export async function visitorToken(key: string, claims: Record<string, unknown>, expiresAt: Date): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(Math.floor(expiresAt.getTime() / 1000) - 60)
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(new TextEncoder().encode(key));
}

/** Page titles of the navigation (the toc), in order. */
export function navTitles(html: string): string[] {
  const toc = /<nav class="toc"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  return [...toc.matchAll(/<(?:a|span)[^>]*>(?:<span class="toc-emoji"[^>]*>[^<]*<\/span>)?([^<]*)<\/(?:a|span)>/g)].map((m) => m[1]);
}

/** The documentation the tests publish: nested pages, a group, a hidden page, layout options, SEO flags. */
export function guidePages(label: string): NewPage[] {
  return [
    { type: 'document', title: 'Welcome', description: `Start here with ${label}.`, markdown: `Welcome to ${label}.\n\n## Install\n\nRun the installer.\n\n## Configure\n\nEdit the file.\n` },
    {
      type: 'document',
      title: 'Getting started',
      markdown: 'The basics of getting started.\n',
      pages: [
        { type: 'document', title: 'Quickstart', description: 'Five minutes to the first page.', markdown: 'Quick steps: ![diagram](diagram.png)\n\nSee [the welcome](../welcome.md).\n' },
        { type: 'document', title: 'Plain layout', layout: { outline: false, pagination: false, description: false }, description: 'Description not shown.', markdown: '## Hidden outline heading\n\nText.\n' },
      ],
    },
    { type: 'group', title: 'Advanced topics', pages: [{ type: 'document', title: 'Tuning', markdown: 'Tune the flux capacitor.\n' }] },
    { type: 'document', title: 'Secret hidden page', hidden: true, markdown: 'Hidden zebra content.\n' },
    { type: 'document', title: 'Robots stay out', noRobotsIndex: true, markdown: 'Not for robots.\n' },
  ];
}
