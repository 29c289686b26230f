import { useState } from 'preact/hooks';
import { branchRef, withCredentials } from '../api/git-remote.ts';
import { api } from '../api/operations.ts';
import { navigate, paths } from '../app/router.ts';

/**
 * A new space kept in step with a Git repository: the space is created, its Git Sync set (from Git to Quire; the
 * settings can make it both ways later) and a first import started; the space's Git Sync settings then follow
 * the import to its end and give the webhook address for the Git host.
 */
export function ConnectGitForm(props: { organizationId: string; onCreated: () => void }) {
  const [value, setValue] = useState({ title: '', url: '', user: '', secret: '', branch: 'main', projectDirectory: '' });
  // Created by an attempt whose Git Sync was refused: the next attempt uses it rather than making another.
  const [created, setCreated] = useState<{ id: string; title: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (name: keyof typeof value) => (event: Event) => setValue({ ...value, [name]: (event.currentTarget as HTMLInputElement).value });

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    let space = created;
    try {
      const remote = withCredentials(value.url.trim(), value.user.trim(), value.secret);
      const sync = { url: remote, ref: branchRef(value.branch), repoProjectDirectory: value.projectDirectory.trim() };
      if (!space) {
        const made = await api.createSpace(props.organizationId, { title: value.title.trim() || repositoryName(value.url) });
        space = { id: made.id, title: made.title };
        setCreated(space);
      }
      await api.putGitSync(space.id, { ...sync, direction: 'pull' });
      await api.importGit(space.id, sync);
      props.onCreated();
      navigate(paths.spaceSettings(props.organizationId, space.id, 'git'));
    } catch (caught) {
      const message = (caught as Error).message;
      setError(space ? `The space “${space.title}” was created, but its Git Sync could not be set: ${message} Correct the address and connect again.` : message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel form" onSubmit={submit} aria-label="Connect a Git repository">
      <h3>Connect a Git repository</h3>
      <p class="meta">Quire imports the branch into a new space now, and again at each push once the repository’s webhook is set.</p>
      <label>Repository address (HTTPS)<input type="url" name="url" value={value.url} required placeholder="https://github.com/acme/docs.git" onInput={set('url')} /></label>
      <div class="row">
        <label>User name<input value={value.user} autoComplete="off" onInput={set('user')} /></label>
        <label>Password or access token<input type="password" value={value.secret} autoComplete="off" onInput={set('secret')} /></label>
      </div>
      <div class="row">
        <label>Branch<input value={value.branch} required onInput={set('branch')} /></label>
        <label>Folder in it (empty: all)<input value={value.projectDirectory} onInput={set('projectDirectory')} /></label>
      </div>
      <label>Space name (empty: the repository’s name)<input value={value.title} maxLength={100} onInput={set('title')} /></label>
      {error && <p class="error-note" role="alert">{error}</p>}
      <button type="submit" class="button primary" disabled={busy}>{busy ? 'Connecting…' : 'Connect and import'}</button>
    </form>
  );
}

/** "docs" for https://github.com/acme/docs.git: the title of a space when none is given. */
function repositoryName(address: string): string {
  const last = address.trim().replace(/\/+$/, '').split('/').pop() ?? '';
  return last.replace(/\.git$/, '') || 'Untitled space';
}
