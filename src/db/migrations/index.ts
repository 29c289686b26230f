import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './2026-11-21-0001-foundation.ts';
import * as content from './2026-11-21-0002-content.ts';
import * as search from './2026-11-21-0003-search.ts';
import * as changeRequests from './2026-11-21-0004-change-requests.ts';
import * as pdf from './2026-11-21-0005-pdf.ts';
import * as changeRequestContributors from './2026-11-21-0006-change-request-contributors.ts';
import * as sites from './2026-11-21-0007-sites.ts';
import * as webhooksAuditLog from './2026-11-24-0085-webhooks-audit-log.ts';
import * as rateLimits from './2026-11-24-0060-rate-limits.ts';
import * as reader from './2026-11-24-0070-reader.ts';
import * as translations from './2026-11-24-0040-translations.ts';
import * as contentPermissions from './2026-11-24-0080-content-permissions.ts';
import * as reviews from './2026-11-24-0081-reviews.ts';
import * as mergeRules from './2026-11-24-0082-merge-rules.ts';
import * as gitSync from './2026-11-24-0020-git-sync.ts';
import * as openapi from './2026-11-24-0030-openapi.ts';
import * as orphanGrants from './2026-11-26-0090-orphan-grants.ts';
// search (issue 16: organization search)
import * as searchSpaceScope from './2026-11-26-0120-search-space-scope.ts';
// gc (issue 17 items 6 and 8)
import * as apiTokenLifecycle from './2026-11-26-0050-api-token-lifecycle.ts';
import * as contentGc from './2026-11-26-0051-content-gc.ts';
import * as jobQueueKeys from './2026-11-26-0091-job-queue-keys.ts';
// gitsync (issue 12)
import * as gitAutoSync from './2026-11-26-0021-git-auto-sync.ts';
// links (issue 16)
import * as linkFacts from './2026-11-26-0110-link-facts.ts';
import * as signIn from './2026-11-27-0130-sign-in.ts';

/** Every migration, by its timestamped name; Kysely applies them in name order. */
const migrations: Record<string, Migration> = {
  '2026-11-21-0001-foundation': foundation,
  '2026-11-21-0002-content': content,
  '2026-11-21-0003-search': search,
  '2026-11-21-0004-change-requests': changeRequests,
  '2026-11-21-0005-pdf': pdf,
  '2026-11-21-0006-change-request-contributors': changeRequestContributors,
  '2026-11-21-0007-sites': sites,
  '2026-11-24-0085-webhooks-audit-log': webhooksAuditLog,
  '2026-11-24-0060-rate-limits': rateLimits,
  '2026-11-24-0070-reader': reader,
  '2026-11-24-0040-translations': translations,
  '2026-11-24-0080-content-permissions': contentPermissions,
  '2026-11-24-0081-reviews': reviews,
  '2026-11-24-0082-merge-rules': mergeRules,
  '2026-11-24-0020-git-sync': gitSync,
  '2026-11-24-0030-openapi': openapi,
  '2026-11-26-0090-orphan-grants': orphanGrants,
  // gc (issue 17 items 6 and 8)
  '2026-11-26-0050-api-token-lifecycle': apiTokenLifecycle,
  '2026-11-26-0051-content-gc': contentGc,
  '2026-11-26-0091-job-queue-keys': jobQueueKeys,
  // gitsync (issue 12)
  '2026-11-26-0021-git-auto-sync': gitAutoSync,
  // links (issue 16)
  '2026-11-26-0110-link-facts': linkFacts,
  // search (issue 16: organization search)
  '2026-11-26-0120-search-space-scope': searchSpaceScope,
  '2026-11-27-0130-sign-in': signIn,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
