import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { all, call } from './api.ts';
import { ActionError, SecretOnce, useAction, when } from './ui.tsx';

interface ApiToken {
  id: string;
  name?: string;
  status: 'active' | 'expired' | 'revoked';
  createdAt: string;
  expiresAt?: string;
  lastUsedAt?: string;
}

const KEY = 'admin:me:tokens';

/** The signed-in person's API tokens: create one (its secret shown once), revoke one. */
export function TokensSection() {
  const tokens = useQuery(KEY, () => all<ApiToken>('listMyApiTokens', {}));
  const [name, setName] = useState('');
  const [expiresIn, setExpiresIn] = useState('90d');
  const [secret, setSecret] = useState<string | null>(null);
  const action = useAction();
  const create = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const created = await call<ApiToken & { token: string }>('createMyApiToken', {}, { name: name.trim(), ...(expiresIn ? { expiresIn } : {}) });
      setSecret(created.token);
      setName('');
      invalidate(KEY);
    });
  };
  const revoke = (token: ApiToken) => {
    if (!window.confirm(`Revoke the token ${token.name ?? token.id}? Scripts using it stop working at once.`)) return;
    void action.run(async () => {
      await call('revokeMyApiToken', { tokenId: token.id });
      invalidate(KEY);
    });
  };
  return (
    <>
      <p class="lead">A token lets a script call Quire's API as you (<code>Authorization: Bearer …</code>), with your access in every organization.</p>
      <form class="row" onSubmit={create}>
        <label>
          Name
          <input value={name} maxLength={100} required onInput={(event) => setName((event.currentTarget as HTMLInputElement).value)} />
        </label>
        <label>
          Expires
          <select value={expiresIn} onChange={(event) => setExpiresIn((event.currentTarget as HTMLSelectElement).value)}>
            <option value="30d">in 30 days</option>
            <option value="90d">in 90 days</option>
            <option value="365d">in a year</option>
            <option value="">never</option>
          </select>
        </label>
        <button type="submit" class="button primary" disabled={action.busy || !name.trim()}>Create token</button>
      </form>
      <ActionError error={action.error} />
      {secret && <SecretOnce id="new-token" label="The new token" value={secret} onDone={() => setSecret(null)} />}
      {tokens.error && <ErrorNote error={tokens.error} />}
      {tokens.data && tokens.data.length === 0 && <p class="empty">You have no API tokens yet: name one and choose <strong>Create token</strong> to call the API from a script.</p>}
      {tokens.data && tokens.data.length > 0 && (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Your API tokens">
          <table class="data-table">
            <caption class="visually-hidden">Your API tokens</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {tokens.data.map((token) => (
                <tr key={token.id}>
                  <td>{token.name ?? <span class="meta">(no name)</span>}</td>
                  <td>{token.status}</td>
                  <td>{when(token.createdAt)}</td>
                  <td>{token.expiresAt ? when(token.expiresAt) : 'never'}</td>
                  <td>{when(token.lastUsedAt)}</td>
                  <td class="actions">{token.status === 'active' && <button type="button" class="button danger" onClick={() => revoke(token)} disabled={action.busy} aria-label={`Revoke ${token.name ?? token.id}`}>Revoke</button>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
