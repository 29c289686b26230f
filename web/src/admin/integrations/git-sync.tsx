import '../people/admin.css';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { branchRef, withCredentials } from '../../api/git-remote.ts';
import { call } from '../people/api.ts';
import { ActionError, CopyField, SecretOnce, Section, useAction, when } from '../people/ui.tsx';

interface GitSync {
  id: string;
  url: string;
  hasCredentials: boolean;
  ref: string;
  projectDirectory: string;
  direction: 'push' | 'pull' | 'both';
  webhook: { url: string; secret?: string };
  failures: number;
  lastError?: string;
  nextRetryAt?: string;
  updatedAt: string;
}

interface GitOperation {
  id: string;
  direction: 'import' | 'export';
  state: 'pending' | 'running' | 'success' | 'failure';
  stage: 'repo_fetch' | 'config_check' | 'content_process' | 'finalize';
  url: string;
  ref: string;
  commit?: string;
  revision?: string;
  error?: string;
  createdAt: string;
  completedAt?: string;
}

const DIRECTIONS = {
  pull: 'From Git to Quire: a push to the branch updates the space',
  push: 'From Quire to Git: each merge in the space is committed to the branch',
  both: 'Both ways',
} as const;

const STAGES: Record<GitOperation['stage'], string> = {
  repo_fetch: 'fetching the repository',
  config_check: 'reading its configuration',
  content_process: 'converting the content',
  finalize: 'finishing',
};

/** An operation in plain words. */
function describe(operation: GitOperation): string {
  const what = operation.direction === 'import' ? 'Import' : 'Export';
  if (operation.state === 'pending') return `${what} waiting to start`;
  if (operation.state === 'running') return `${what} running: ${STAGES[operation.stage]}`;
  if (operation.state === 'success') return `${what} finished${operation.commit ? ` at commit ${operation.commit.slice(0, 7)}` : ''}`;
  return `${what} failed while ${STAGES[operation.stage]}: ${operation.error ?? 'no reason given'}`;
}

/**
 * Git Sync of a space: the remote, branch, project directory and direction; the webhook address and secret to
 * paste into GitHub or GitLab; the state in plain words; the operations; import and export now.
 */
export function GitSyncPanel(props: { organizationId: string; spaceId: string; canManage: boolean }) {
  const syncKey = `admin:git:${props.spaceId}:sync`;
  const operationsKey = `admin:git:${props.spaceId}:operations`;
  const sync = useQuery(syncKey, () =>
    call<GitSync>('getGitSync', { spaceId: props.spaceId }).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }),
  );
  const operations = useQuery(operationsKey, () => call<{ items: GitOperation[] }>('listGitOperations', { spaceId: props.spaceId }, undefined, { limit: '20' }));
  const [form, setForm] = useState<{ url: string; ref: string; projectDirectory: string; direction: GitSync['direction']; user: string; secret: string } | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const action = useAction();

  // While an operation is under way, look again every two seconds.
  const busy = operations.data?.items.some((operation) => operation.state === 'pending' || operation.state === 'running') ?? false;
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => {
      invalidate(operationsKey);
      invalidate(syncKey);
    }, 2000);
    return () => clearInterval(timer);
  }, [busy]);

  if (sync.error) return <ErrorNote error={sync.error} />;
  if (sync.data === undefined) return <p aria-busy="true">Loading…</p>;
  const current = sync.data;
  const value = form ?? { url: current?.url ?? '', ref: current?.ref.replace(/^refs\/heads\//, '') ?? 'main', projectDirectory: current?.projectDirectory ?? '', direction: current?.direction ?? 'pull', user: '', secret: '' };
  const set = (name: keyof typeof value) => (event: Event) => setForm({ ...value, [name]: (event.currentTarget as HTMLInputElement).value });
  const remote = withCredentials(value.url.trim(), value.user.trim(), value.secret);
  const ref = branchRef(value.ref);
  const changed = () => {
    invalidate(syncKey);
    invalidate(operationsKey);
    invalidate(`space:${props.spaceId}`);
  };

  const save = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const saved = await call<GitSync>('putGitSync', { spaceId: props.spaceId }, { url: remote, ref, repoProjectDirectory: value.projectDirectory.trim(), direction: value.direction });
      if (saved.webhook.secret) setSecret(saved.webhook.secret);
      // The form keeps what was typed (the password too), so "Import now" can use it at once.
      setForm(value);
      changed();
    });
  };
  const rotate = () =>
    action.run(async () => {
      const saved = await call<GitSync>('putGitSync', { spaceId: props.spaceId }, { url: current!.url, ref: current!.ref, repoProjectDirectory: current!.projectDirectory, direction: current!.direction, rotateWebhookSecret: true });
      if (saved.webhook.secret) setSecret(saved.webhook.secret);
    });
  const disconnect = () => {
    if (!window.confirm('Stop syncing this space with Git? The space and the repository keep what they hold.')) return;
    void action.run(async () => {
      await call('deleteGitSync', { spaceId: props.spaceId });
      changed();
    });
  };
  const now = (direction: 'import' | 'export') =>
    action.run(async () => {
      if (!value.url.trim()) throw new Error('Give the repository address first.');
      const body = { url: remote, ref, repoProjectDirectory: value.projectDirectory.trim() };
      if (direction === 'import') await call('importGit', { spaceId: props.spaceId }, body);
      else await call('exportGit', { spaceId: props.spaceId }, { ...body, commitMessage: 'Update from Quire' });
      changed();
    });

  const last = operations.data?.items[0];
  const lastSuccess = operations.data?.items.find((operation) => operation.state === 'success');
  return (
    <>
      <Section id="git-state" title="State">
        {current ? (
          <dl class="facts">
            <dt>Syncing</dt><dd>{current.url} · {current.ref.replace(/^refs\/heads\//, '')}{current.projectDirectory ? ` · folder ${current.projectDirectory}` : ''}</dd>
            <dt>Direction</dt><dd>{DIRECTIONS[current.direction]}</dd>
            <dt>Last commit</dt><dd>{lastSuccess?.commit ? `${lastSuccess.commit.slice(0, 12)} (${when(lastSuccess.completedAt)})` : 'none yet'}</dd>
            <dt>Last revision</dt><dd>{lastSuccess?.revision ?? 'none yet'}</dd>
            <dt>Next retry</dt><dd>{current.nextRetryAt ? `${when(current.nextRetryAt)} (after ${current.failures} failure(s))` : 'none planned'}</dd>
            <dt>Last error</dt><dd>{current.lastError ?? 'none'}</dd>
          </dl>
        ) : (
          <p class="empty">This space is not synced with a Git repository. Give its address below: Quire imports it now and keeps the space and the branch in step.</p>
        )}
        {last && <p role="status" class={`status-${last.state}`}>{describe(last)}</p>}
      </Section>
      {secret && <SecretOnce id="git-webhook-secret" label="Webhook secret" value={secret} onDone={() => setSecret(null)} />}
      {current && (
        <Section id="git-webhook" title="Webhook for GitHub or GitLab" lead="So that a push reaches Quire at once: in the repository's settings, add a webhook with this address (content type application/json, push events) and the secret Quire showed when the sync was set.">
          <CopyField id="git-webhook-url" label="Webhook address" value={current.webhook.url} />
          {props.canManage && <button type="button" class="button" onClick={rotate} disabled={action.busy}>Make a new secret</button>}
        </Section>
      )}
      {props.canManage && (
        <Section id="git-settings" title={current ? 'Change the sync' : 'Connect a repository'}>
          <form class="form" onSubmit={save}>
            <label>Repository address (HTTPS)<input type="url" value={value.url} required placeholder="https://github.com/acme/docs.git" onInput={set('url')} /></label>
            <div class="row">
              <label>User name<input value={value.user} autoComplete="off" onInput={set('user')} /></label>
              <label>Password or access token{current?.hasCredentials ? ' (stored; leave empty to keep it)' : ''}<input type="password" value={value.secret} autoComplete="off" onInput={set('secret')} /></label>
            </div>
            <label>Branch<input value={value.ref} required onInput={set('ref')} /></label>
            <label>Project directory (empty: the whole repository)<input value={value.projectDirectory} onInput={set('projectDirectory')} /></label>
            <label>
              Direction
              <select value={value.direction} onChange={set('direction')}>
                {(Object.keys(DIRECTIONS) as Array<keyof typeof DIRECTIONS>).map((direction) => <option key={direction} value={direction}>{DIRECTIONS[direction]}</option>)}
              </select>
            </label>
            <div class="row">
              <button type="submit" class="button primary" disabled={action.busy}>{current ? 'Save' : 'Connect'}</button>
              <button type="button" class="button" onClick={() => now('import')} disabled={action.busy}>Import now</button>
              <button type="button" class="button" onClick={() => now('export')} disabled={action.busy}>Export now</button>
              {current && <button type="button" class="button danger" onClick={disconnect} disabled={action.busy}>Disconnect</button>}
            </div>
          </form>
          <ActionError error={action.error} />
        </Section>
      )}
      <Section id="git-operations" title="Operations">
        {operations.error && <ErrorNote error={operations.error} />}
        {operations.data && operations.data.items.length === 0 && <p class="empty">No import or export yet. {props.canManage ? <><strong>Import now</strong> brings the branch into the space; <strong>Export now</strong> writes the space to it.</> : <>Someone who manages this space connects a repository.</>}</p>}
        {operations.data && operations.data.items.length > 0 && (
          <div class="table-scroll" tabIndex={0} role="region" aria-label="Imports and exports">
            <table class="data-table">
              <caption class="visually-hidden">Imports and exports of this space, newest first</caption>
              <thead><tr><th scope="col">Started</th><th scope="col">What happened</th><th scope="col">Branch</th><th scope="col">Revision</th></tr></thead>
              <tbody>
                {operations.data.items.map((operation) => (
                  <tr key={operation.id}>
                    <td>{when(operation.createdAt)}</td>
                    <td class={`status-${operation.state}`}>{describe(operation)}</td>
                    <td>{operation.ref.replace(/^refs\/heads\//, '')}</td>
                    <td>{operation.revision ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </>
  );
}
