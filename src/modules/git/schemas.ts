import { Type, type Static } from 'typebox';
import { StringEnum, Timestamp } from '../../http/schemas.ts';

export { SpaceParams } from '../content/schemas.ts';

const GitInfoUpdate = Type.Object(
  {
    provider: Type.Optional(StringEnum(['github', 'gitlab'] as const)),
    url: Type.Optional(Type.String({ maxLength: 2048, description: "The repository's tree URL." })),
  },
  { additionalProperties: false },
);

const common = {
  url: Type.String({ minLength: 1, maxLength: 4096, description: 'The https URL of the repository; it may carry credentials (https://user:token@host/…), which are never shown or logged.' }),
  ref: Type.String({ minLength: 1, maxLength: 250, description: 'The branch, as refs/heads/<name>.' }),
  repoCacheID: Type.Optional(Type.String({ maxLength: 200 })),
  repoTreeURL: Type.Optional(Type.String({ maxLength: 2048 })),
  repoCommitURL: Type.Optional(Type.String({ maxLength: 2048 })),
  repoProjectDirectory: Type.Optional(Type.String({ maxLength: 1000 })),
  timestamp: Type.Optional(Timestamp),
  force: Type.Optional(Type.Boolean()),
  gitInfo: Type.Optional(GitInfoUpdate),
};

export const ImportGitBody = Type.Object({ ...common, standalone: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
export type ImportGitBody = Static<typeof ImportGitBody>;

export const ExportGitBody = Type.Object({ ...common, commitMessage: Type.String({ maxLength: 10_000 }) }, { additionalProperties: false });
export type ExportGitBody = Static<typeof ExportGitBody>;

export const GitSyncStateSchema = Type.Object(
  {
    repoName: Type.Optional(Type.String()),
    installationProvider: Type.Optional(StringEnum(['github', 'gitlab', 'github-legacy'] as const)),
    integration: Type.Optional(Type.String()),
    url: Type.Optional(Type.String()),
    updatedAt: Type.Optional(Timestamp),
  },
  { $id: 'GitSyncState' },
);
export type GitSyncState = Static<typeof GitSyncStateSchema>;

export const GitOperationSchema = Type.Object({
  id: Type.String(),
  direction: StringEnum(['import', 'export'] as const),
  state: StringEnum(['pending', 'running', 'success', 'failure'] as const),
  stage: StringEnum(['repo_fetch', 'config_check', 'content_process', 'finalize'] as const),
  url: Type.String({ description: 'The remote, without credentials.' }),
  ref: Type.String(),
  commit: Type.Optional(Type.String()),
  revision: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  createdAt: Timestamp,
  startedAt: Type.Optional(Timestamp),
  updatedAt: Timestamp,
  completedAt: Type.Optional(Timestamp),
});
export type GitOperation = Static<typeof GitOperationSchema>;

export const GitOperationsSchema = Type.Object({ count: Type.Number(), items: Type.Array(GitOperationSchema) });

export const ListOperationsQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) }, { additionalProperties: false });

// Automatic sync and the push webhooks of Git hosts
export const PutGitSyncBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 4096, description: 'The https URL of the repository; credentials in it (https://user:token@host/…) are stored sealed and never shown.' }),
    ref: Type.String({ minLength: 1, maxLength: 250, description: 'The branch, as refs/heads/<name>.' }),
    repoProjectDirectory: Type.Optional(Type.String({ maxLength: 1000 })),
    direction: StringEnum(['push', 'pull', 'both'] as const, { description: 'push: Quire → Git; pull: Git → Quire; both.' }),
    commitMessageTemplate: Type.Optional(Type.String({ maxLength: 500, description: 'The message of an automatic export after a change request is merged; {number} and {subject} are replaced. Default "GITBOOK-{number}: {subject}".' })),
    pollIntervalSeconds: Type.Optional(Type.Union([Type.Integer({ minimum: 60, maximum: 86_400 }), Type.Null()], { description: 'Ask the remote for new commits this often (for remotes without webhooks); null or absent: no polling.' })),
    rotateWebhookSecret: Type.Optional(Type.Boolean({ description: 'Make a new webhook secret (answered once).' })),
  },
  { additionalProperties: false },
);
export type PutGitSyncBody = Static<typeof PutGitSyncBody>;

export const GitSyncConfigSchema = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'The remote, without credentials.' }),
  hasCredentials: Type.Boolean(),
  ref: Type.String(),
  projectDirectory: Type.String(),
  direction: StringEnum(['push', 'pull', 'both'] as const),
  commitMessageTemplate: Type.String(),
  pollIntervalSeconds: Type.Union([Type.Integer(), Type.Null()]),
  webhook: Type.Object({ url: Type.String(), secret: Type.Optional(Type.String({ description: 'Shown once: when the sync is made, or its secret rotated.' })) }),
  failures: Type.Integer({ description: 'Automatic operations failed in a row (0 after a success).' }),
  lastError: Type.Optional(Type.String()),
  nextRetryAt: Type.Optional(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type GitSyncConfig = Static<typeof GitSyncConfigSchema>;

export const WebhookParams = Type.Object({ syncId: Type.String({ minLength: 1, maxLength: 100 }) });
export const WebhookAnswerSchema = Type.Object({ result: StringEnum(['queued', 'ignored', 'pong'] as const), reason: Type.Optional(Type.String()) });
