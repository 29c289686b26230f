import { BadRequest } from '../errors.ts';
import { checkDestination, type Resolver } from '../net/addresses.ts';

/**
 * A Git remote as a user gives it (`https://user:token@host/org/repo.git`): only http and https are
 * accepted (`file:`, `ssh:`, `git:`, `ext::` and scp-like addresses are refused with a 400); credentials
 * are split off the URL at once, so that what is stored, logged and shown is the URL without them; the
 * host passes the outbound address guard before git connects, and git is pinned to the checked address
 * (`http.curloptResolve`), so a DNS answer that changes between the check and the connection cannot
 * lead it elsewhere.
 */
export interface Remote {
  /** The URL without credentials. */
  url: string;
  /** `user:password` as given (decoded), or null. */
  credentials: string | null;
}

/** Splits and checks a remote URL given by a user. */
export function parseRemote(raw: string): Remote {
  const text = raw.trim();
  if (/^[a-z][a-z0-9+.-]*::/i.test(text)) throw new BadRequest('Git remotes with a transport helper ("ext::", "fd::" …) are refused; give an https URL of the repository.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BadRequest(`The repository URL "${redact(text).slice(0, 200)}" is not a URL; give an https URL such as https://github.com/org/repo.git.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new BadRequest(`Git remotes must use https (or http); "${url.protocol.replace(/:$/, '')}" is refused. Give the repository's https URL.`);
  }
  if (url.hash || url.search) throw new BadRequest('The repository URL must not carry a query or a fragment.');
  let credentials: string | null = null;
  if (url.username || url.password) {
    credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    url.username = '';
    url.password = '';
  }
  return { url: url.href, credentials };
}

/** A URL as it may be shown: without its credentials. */
export function redact(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1');
}

/** The name of a repository for `GitSyncState.repoName`: `org/repo` from its path. */
export function repoName(url: string): string {
  const path = new URL(url).pathname.replace(/\.git\/?$/, '').replace(/^\/+|\/+$/g, '');
  return path || new URL(url).host;
}

export interface ConnectOptions {
  allowPrivate: boolean;
  resolver?: Resolver;
}

/**
 * Checks the remote's host with the address guard, and answers the git configuration that connects to
 * it: pinned to the checked address, with the credentials as an Authorization header (in the environment).
 */
export async function remoteConfig(remote: Remote, options: ConnectOptions): Promise<Array<[string, string]>> {
  const url = new URL(remote.url);
  const destination = await checkDestination(url, { allowPrivate: options.allowPrivate, resolver: options.resolver, what: 'Git remote' });
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const address = destination.family === 6 ? `[${destination.address}]` : destination.address;
  const config: Array<[string, string]> = [['http.curloptResolve', `${host}:${port}:${address}`]];
  if (remote.credentials !== null) {
    config.push(['http.extraHeader', `Authorization: Basic ${Buffer.from(remote.credentials, 'utf8').toString('base64')}`]);
  }
  return config;
}

const REF = /^refs\/(heads|tags)\/(?!-)(?!.*\.\.)(?!.*\/\.)(?!.*\.lock$)(?!.*\/$)[A-Za-z0-9._\/-]{1,200}$/;

/** Checks a ref such as `refs/heads/main` (a branch name alone is taken as a branch). */
export function normalizeRef(ref: string): string {
  const full = ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
  if (!REF.test(full)) throw new BadRequest(`"${ref.slice(0, 200)}" is not a Git ref Quire can sync; give a branch as refs/heads/<name>.`);
  return full;
}

/** Checks a project directory (a folder of the repository): relative, without "..". */
export function normalizeProjectDirectory(path: string | undefined): string {
  if (!path) return '';
  const parts = path.replace(/\\/g, '/').split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..') || path.includes('\0')) throw new BadRequest('The repoProjectDirectory must be a folder inside the repository (no "..").');
  return parts.join('/');
}
