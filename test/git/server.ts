import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/**
 * Real Git remotes for the tests: bare repositories served over smart HTTP by `git http-backend` (the CGI
 * program git ships) behind a small Node HTTP server on 127.0.0.1, with basic authentication. Clones,
 * fetches and pushes go through it for real.
 */

export const USER = 'writer';
export const PASSWORD = 's3cret-t0ken';

const GIT_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Dana Dev', GIT_AUTHOR_EMAIL: 'dana@example.com', GIT_COMMITTER_NAME: 'Dana Dev', GIT_COMMITTER_EMAIL: 'dana@example.com', HOME: tmpdir() };

export function gitSync(args: string[], cwd?: string, input?: string): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, input, maxBuffer: 1 << 30 }).toString('utf8');
}

export interface GitServer {
  /** http://writer:s3cret-t0ken@127.0.0.1:port/<name>.git */
  url(name: string, credentials?: string | null): string;
  /** Makes a bare repository holding one commit of `files` on `main`. */
  createRepo(name: string, files: Record<string, string | Buffer>): void;
  /** A bare repository made from a folder (every file of it, in one commit). */
  createRepoFromFolder(name: string, folder: string): void;
  /** Serves a copy of an existing repository (every branch, full history). */
  adoptRepo(name: string, source: string): void;
  /** A working clone of a repository (to read it or push to it like a user). */
  clone(name: string): string;
  /** Commits what a working clone holds and pushes it. */
  push(work: string, message: string): string;
  /** The files of a branch: path → bytes. */
  files(name: string, ref?: string): Map<string, Buffer>;
  head(name: string, ref?: string): string;
  /** Lines of `git log` of a branch: `<oid> <author> | <committer> | <subject>`. */
  log(name: string, ref?: string): string[];
  /** `git diff` between two commits of a repository (`--stat` by default). */
  diff(name: string, from: string, to: string, ...options: string[]): string;
  /** Every request line seen (method, path, Authorization present or not). */
  requests: string[];
  /** While true, every request is answered 503 (a remote that is down, to test retries). */
  down: boolean;
  root: string;
  close(): Promise<void>;
}

function walk(folder: string, base = folder): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (name === '.git') return [];
    return statSync(path).isDirectory() ? walk(path, base) : [relative(base, path)];
  });
}

export async function startGitServer(): Promise<GitServer> {
  const root = mkdtempSync(join(tmpdir(), 'quire-git-remote-'));
  const repos = join(root, 'repos');
  mkdirSync(repos);
  const requests: string[] = [];
  const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(`${req.method} ${url.pathname}${url.search} auth=${req.headers.authorization ? 'yes' : 'no'}`);
    if (api.down) {
      res.writeHead(503).end('down for maintenance');
      return;
    }
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('authentication required');
      return;
    }
    const child = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        ...GIT_ENV,
        GIT_PROJECT_ROOT: repos,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: USER,
        REMOTE_ADDR: '127.0.0.1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.replace(/^\?/, ''),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      },
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let started = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (started) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      started = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('utf8').split('\r\n')) {
        const [name, ...rest] = line.split(':');
        const value = rest.join(':').trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    child.stdout.on('end', () => res.end());
    child.stderr.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const bare = (name: string) => join(repos, `${name}.git`);
  const api: GitServer = {
    root,
    requests,
    down: false,
    url: (name, credentials = `${USER}:${PASSWORD}`) => `http://${credentials ? `${credentials}@` : ''}127.0.0.1:${port}/${name}.git`,
    createRepo(name, files) {
      const work = mkdtempSync(join(root, 'work-'));
      gitSync(['init', '-q', '-b', 'main', work]);
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(work, path)), { recursive: true });
        writeFileSync(join(work, path), content);
      }
      gitSync(['add', '-A'], work);
      gitSync(['commit', '-q', '-m', 'Initial content'], work);
      gitSync(['clone', '-q', '--bare', work, bare(name)]);
      gitSync(['config', 'http.receivepack', 'true'], bare(name));
      rmSync(work, { recursive: true, force: true });
    },
    createRepoFromFolder(name, folder) {
      const files: Record<string, Buffer> = {};
      for (const path of walk(folder)) files[path] = readFileSync(join(folder, path));
      api.createRepo(name, files);
    },
    adoptRepo(name, source) {
      try {
        gitSync(['clone', '-q', '--bare', '--no-local', source, bare(name)]);
        gitSync(['config', 'http.receivepack', 'true'], bare(name));
      } catch {
        // A partial copy (its largest blobs absent): serve the files of its HEAD that it holds, byte for
        // byte, as one commit.
        rmSync(bare(name), { recursive: true, force: true });
        const files: Record<string, Buffer> = {};
        const listing = execFileSync('git', ['ls-tree', '-r', '-z', 'HEAD'], { cwd: source, maxBuffer: 1 << 30 }).toString('utf8').split('\0').filter(Boolean);
        for (const record of listing) {
          const [meta, path] = record.split('\t');
          const [mode, type, oid] = meta.split(' ');
          if (type !== 'blob' || mode === '120000') continue;
          try {
            files[path] = execFileSync('git', ['cat-file', 'blob', oid], { cwd: source, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
          } catch {
            // absent from the copy
          }
        }
        api.createRepo(name, files);
      }
    },
    clone(name) {
      const work = mkdtempSync(join(root, 'clone-'));
      gitSync(['clone', '-q', bare(name), work]);
      return work;
    },
    push(work, message) {
      gitSync(['add', '-A'], work);
      gitSync(['commit', '-q', '-m', message], work);
      gitSync(['push', '-q', 'origin', 'HEAD:main'], work);
      return gitSync(['rev-parse', 'HEAD'], work).trim();
    },
    files(name, ref = 'main') {
      const out = new Map<string, Buffer>();
      const list = gitSync(['ls-tree', '-r', '-z', '--name-only', ref], bare(name)).split('\0').filter(Boolean);
      for (const path of list) out.set(path, execFileSync('git', ['cat-file', 'blob', `${ref}:${path}`], { cwd: bare(name), maxBuffer: 1 << 30 }));
      return out;
    },
    head: (name, ref = 'main') => gitSync(['rev-parse', ref], bare(name)).trim(),
    diff: (name, from, to, ...options) => {
      const split = options.indexOf('--');
      const flags = split < 0 ? options : options.slice(0, split);
      const paths = split < 0 ? [] : options.slice(split);
      return gitSync(['diff', ...(flags.length ? flags : ['--stat']), from, to, ...paths], bare(name));
    },
    log: (name, ref = 'main') => gitSync(['log', '--format=%H %an <%ae> | %cn | %s', ref], bare(name)).trim().split('\n'),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
  return api;
}
