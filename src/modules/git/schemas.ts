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
