/**
 * The real objects the fuzzer aims at: an organization with a user of every role (and a guest and an
 * outsider), spaces with pages and a file, a change request, and then whatever the API's own create
 * operations make. Ids are kept in pools named after the path parameters that take them (`spaceId`, …).
 */
import type { TestApp } from '../../test/helpers/app.ts';
import { addFile, createSpaceWithPages, editContent } from '../../test/helpers/content-factory.ts';
import { createChangeRequestRow } from '../../test/helpers/comment-fixtures.ts';
import { createWorld } from '../../test/helpers/factories.ts';
import { MEMBER_ROLES } from '../../src/policy/roles.ts';

export interface Actor {
  name: string;
  /** The Authorization header sent, if any. */
  authorization?: string;
}

/** Ids by pool name, each pool in the order its ids were found (so a seed replays the same picks). */
export class Pools {
  private readonly pools = new Map<string, string[]>();
  private readonly seen = new Set<string>();

  add(pool: string, id: unknown): void {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const value = String(id);
    const key = `${pool}\u0001${value}`;
    if (value === '' || this.seen.has(key)) return;
    this.seen.add(key);
    const list = this.pools.get(pool) ?? [];
    list.push(value);
    this.pools.set(pool, list);
  }

  /** The `pick`-th id of the pool (modulo its size), or undefined when the pool is empty. */
  pick(pool: string, pick: number): string | undefined {
    const list = this.pools.get(pool);
    if (!list || list.length === 0) return undefined;
    // Favour recent ids: a deleted object's id stays in the pool, but newer objects are likelier alive.
    const recent = Math.min(list.length, 24);
    return pick % 4 === 0 ? list[pick % list.length] : list[list.length - 1 - (pick % recent)];
  }

  /** Takes an id out of its pool (its object was deleted); it stays reachable as a stale id of another pool. */
  remove(pool: string, id: string): void {
    const list = this.pools.get(pool);
    const at = list?.indexOf(id) ?? -1;
    if (list && at >= 0) list.splice(at, 1);
    if (list && at >= 0) this.add('deleted', id);
  }

  size(pool: string): number {
    return this.pools.get(pool)?.length ?? 0;
  }

  names(): string[] {
    return [...this.pools.keys()];
  }

  sizes(): Record<string, number> {
    return Object.fromEntries([...this.pools].map(([k, v]) => [k, v.length]));
  }
}

export interface FuzzWorld {
  pools: Pools;
  /** Callers: every role of the newest organization, a guest, an outsider, nobody, forged credentials. */
  actors: Actor[];
  /** Tokens that must never appear in an answer. */
  secrets: Set<string>;
}

/** Builds (or adds to) the world: one more organization with its cast and content. */
export async function populate(t: TestApp, world?: FuzzWorld): Promise<FuzzWorld> {
  const pools = world?.pools ?? new Pools();
  const secrets = world?.secrets ?? new Set<string>();
  t.clock.advance(60_000);
  const cast = await createWorld(t.ctx, t.app, t.clock);
  const bearer = (token: string) => `Bearer ${token}`;
  const actors: Actor[] = [
    ...MEMBER_ROLES.map((role) => ({ name: role, authorization: bearer(cast.members[role].token) })),
    { name: 'guest', authorization: bearer(cast.guest.token) },
    { name: 'outsider', authorization: bearer(cast.outsider.token) },
    { name: 'anonymous' },
    { name: 'forged token', authorization: 'Bearer qrt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    { name: 'empty bearer', authorization: 'Bearer ' },
    { name: 'basic', authorization: 'Basic YWRtaW46YWRtaW4=' },
    { name: 'bearer only', authorization: 'Bearer' },
    { name: 'lowercase scheme', authorization: `bearer ${cast.admin.token}` },
    { name: 'token with junk', authorization: `Bearer ${cast.admin.token}x` },
    { name: 'two tokens', authorization: `Bearer ${cast.admin.token}, Bearer ${cast.guest.token}` },
  ];
  for (const role of MEMBER_ROLES) secrets.add(cast.members[role].token);
  secrets.add(cast.guest.token);
  secrets.add(cast.outsider.token);

  pools.add('organizationId', cast.organizationId);
  for (const role of MEMBER_ROLES) pools.add('userId', cast.members[role].id);
  pools.add('userId', cast.guest.id);
  pools.add('userId', cast.outsider.id);

  // A space with nested pages and a file, and a change request over it, written as the product writes them.
  const { spaceId } = await createSpaceWithPages(
    t.ctx,
    cast.organizationId,
    [
      { type: 'document', title: 'Welcome', markdown: '# Welcome\n\nHello **world**.\n', pages: [{ type: 'document', title: 'Install', markdown: 'Run `quire`.\n' }] },
      { type: 'document', title: 'Guide', markdown: '## Steps\n\n1. one\n2. two\n' },
    ],
    { createdBy: cast.admin.id, visibility: 'public' },
  );
  await editContent(t.ctx, spaceId, async (writer) => {
    const fileId = await addFile(t.ctx, writer, { name: 'logo.png', contentType: 'image/png', bytes: Buffer.from('89504e470d0a1a0a', 'hex'), dimensions: { width: 1, height: 1 } });
    pools.add('fileId', fileId);
  });
  pools.add('spaceId', spaceId);
  const changeRequest = await createChangeRequestRow(t.ctx, spaceId, cast.admin.id);
  pools.add('changeRequestId', changeRequest.id);
  pools.add('changeRequestId', changeRequest.number);
  return { pools, actors, secrets };
}
