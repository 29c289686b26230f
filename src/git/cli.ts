import { execFile, spawn } from 'node:child_process';

/**
 * The system `git`, run with `execFile` (never a shell). Callers put `--` before paths and URLs, and no
 * text a user gave is ever passed where git reads an option. Every run is isolated from the machine's and
 * the user's configuration and never prompts; settings that carry secrets (the remote's Authorization
 * header) travel in the environment (`GIT_CONFIG_COUNT`/`KEY`/`VALUE`), never on the command line, so they
 * appear in no process list, log or error.
 */

export interface GitRunOptions {
  /** The repository (a bare one: `--git-dir`). */
  gitDir?: string;
  /** Configuration given through the environment, in order. */
  config?: Array<[string, string]>;
  /** More environment (author, committer, index file). */
  env?: Record<string, string>;
  /** Bytes written to git's standard input. */
  input?: Buffer | string;
  /** Abort the run (the operation's time limit). */
  signal?: AbortSignal;
}

/** A git command that failed: its message is git's own last lines, which never hold a secret (see above). */
export class GitCommandError extends Error {
  constructor(
    readonly command: string,
    readonly stderr: string,
  ) {
    super(`git ${command} failed: ${stderr.trim().split('\n').slice(-3).join(' ').slice(0, 500) || 'no message'}`);
  }
}

/** The environment of every git run. */
export function gitEnvironment(options: Pick<GitRunOptions, 'config' | 'env'> = {}): NodeJS.ProcessEnv {
  const config: Array<[string, string]> = [
    // Only http(s) remotes, whatever a repository's submodules or URL rewrites ask for.
    ['protocol.allow', 'never'],
    ['protocol.https.allow', 'always'],
    ['protocol.http.allow', 'always'],
    // A redirect could lead past the address guard; a remote must be named by its final address.
    ['http.followRedirects', 'false'],
    ['core.quotePath', 'false'],
    ['gc.auto', '0'],
    ...(options.config ?? []),
  ];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    LANG: 'C',
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
    SSH_ASKPASS: 'true',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_COUNT: String(config.length),
    ...options.env,
  };
  config.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

function argsWithDir(args: string[], gitDir?: string): string[] {
  return gitDir ? [`--git-dir=${gitDir}`, ...args] : args;
}

/** Runs git; resolves with its standard output, rejects with a GitCommandError. */
export function git(args: string[], options: GitRunOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      argsWithDir(args, options.gitDir),
      { encoding: 'buffer', maxBuffer: 2 * 1024 * 1024 * 1024, env: gitEnvironment(options), signal: options.signal },
      (error, stdout, stderr) => {
        if (error) reject(new GitCommandError(args[0], stderr.toString('utf8') || error.message));
        else resolve(stdout);
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** Runs git and answers its output as text without the final newline. */
export async function gitText(args: string[], options: GitRunOptions = {}): Promise<string> {
  return (await git(args, options)).toString('utf8').replace(/\n$/, '');
}

/**
 * Reads blobs through one `git cat-file --batch` process: one request at a time, answered in order, so a
 * repository of 50,000 files costs one process, not 50,000.
 */
export class BlobReader {
  private readonly child;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly waiting: Array<{ resolve: (bytes: Buffer) => void; reject: (error: Error) => void }> = [];
  private failed: Error | null = null;

  constructor(gitDir: string) {
    this.child = spawn('git', [`--git-dir=${gitDir}`, 'cat-file', '--batch'], { env: gitEnvironment(), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
    const fail = (error: Error) => {
      this.failed = error;
      for (const waiter of this.waiting.splice(0)) waiter.reject(error);
    };
    this.child.on('error', fail);
    this.child.on('exit', (code) => {
      if (this.waiting.length > 0) fail(new Error(`git cat-file stopped (exit code ${code}).`));
    });
  }

  read(oid: string): Promise<Buffer> {
    if (this.failed) return Promise.reject(this.failed);
    if (!/^[0-9a-f]{40,64}$/.test(oid)) return Promise.reject(new Error(`Not an object id: ${oid}`));
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.child.stdin.write(`${oid}\n`);
    });
  }

  private drain(): void {
    while (this.waiting.length > 0) {
      const newline = this.buffer.indexOf(10);
      if (newline < 0) return;
      const header = this.buffer.subarray(0, newline).toString('utf8');
      const parts = header.split(' ');
      if (parts[1] === 'missing' || parts.length < 3) {
        this.buffer = this.buffer.subarray(newline + 1);
        this.waiting.shift()!.reject(new Error(`The object ${parts[0]} is missing from the repository.`));
        continue;
      }
      const size = Number(parts[2]);
      if (this.buffer.length < newline + 1 + size + 1) return;
      const bytes = Buffer.from(this.buffer.subarray(newline + 1, newline + 1 + size));
      this.buffer = this.buffer.subarray(newline + 1 + size + 1);
      this.waiting.shift()!.resolve(bytes);
    }
  }

  close(): void {
    this.child.stdin.end();
  }
}
