/**
 * Tests that need a system package (Apertium, Chromium, git, nginx, a Redis server) ask for it here, once per file, at load:
 *
 *   describe('…', { skip: needs('apertium') }, () => …)
 *
 * When the program is missing, a developer's run (CI unset) skips the file's tests with one line naming the
 * package to install; a CI run (CI set) fails at once, because .ci/run installs every one of them. Either
 * way nothing waits for a program that is not there. Programs are looked up on PATH (Chromium too), so a run
 * with a PATH that leaves one out behaves as a machine without it.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execFileSync } from 'node:child_process';

export type SystemPackage = 'apertium' | 'chromium' | 'git' | 'nginx' | 'redis';

/** What to install, as a developer on Debian would. */
const INSTALL: Record<SystemPackage, string> = {
  apertium: 'apt-get install apertium apertium-eng-spa',
  chromium: 'apt-get install chromium-headless-shell',
  git: 'apt-get install git',
  nginx: 'apt-get install nginx-light',
  redis: 'apt-get install redis-server, or set TEST_REDIS_URL',
};

/** The Redis the tests use: TEST_REDIS_URL, else the local default. */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The executable `name` on PATH (then in `extra` folders), or null. */
export function onPath(name: string, extra: string[] = []): string | null {
  const folders = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...extra];
  for (const folder of folders) {
    const path = join(folder, name);
    if (executable(path)) return path;
  }
  return null;
}

/** Why the package cannot be used here, or null when it can. */
function missing(pkg: SystemPackage): string | null {
  switch (pkg) {
    case 'apertium': {
      if (!onPath('apertium')) return 'the apertium command is not on PATH';
      return existsSync('/usr/share/apertium/modes/eng-spa.mode') ? null : 'the English–Spanish pair (apertium-eng-spa) is not installed';
    }
    case 'chromium': {
      const named = process.env.QUIRE_TEST_CHROMIUM;
      if (named) return executable(named) ? null : `QUIRE_TEST_CHROMIUM (${named}) is not an executable`;
      if (onPath('chromium-headless-shell')) return null;
      // CI runs every browser file on the shell (.ci/run installs it): no quiet fallback to the full browser.
      if (process.env.CI) return 'the chromium-headless-shell command is not on PATH';
      return onPath('chromium') ? null : 'neither chromium-headless-shell nor chromium is on PATH';
    }
    case 'git': {
      const git = onPath('git');
      if (!git) return 'the git command is not on PATH';
      const exec = execFileSync(git, ['--exec-path'], { encoding: 'utf8' }).trim();
      return existsSync(join(exec, 'git-http-backend')) ? null : 'git http-backend is not installed';
    }
    case 'nginx':
      return nginxPath() ? null : 'the nginx command is not on PATH';
    case 'redis':
      return redisAnswers(testRedisUrl) ? null : `no Redis answers at ${testRedisUrl}`;
  }
}

/**
 * The `skip` option of a suite that needs these packages: false when they are all there; else a one-line
 * reason naming the package (CI unset), or an error thrown at once (CI set).
 */
export function needs(...packages: SystemPackage[]): string | false {
  for (const pkg of packages) {
    const why = missing(pkg);
    if (why === null) continue;
    const line = `needs ${pkg}: ${why} (${INSTALL[pkg]})`;
    if (process.env.CI) throw new Error(`${line}; CI must have it (.ci/run installs it)`);
    return line;
  }
  return false;
}

/** Debian's nginx is in /usr/sbin, which is not on every user's PATH: looked for there beside /usr/bin. */
export function nginxPath(): string | null {
  const path = (process.env.PATH ?? '').split(delimiter);
  return onPath('nginx', path.includes('/usr/bin') && !path.includes('/usr/sbin') ? ['/usr/sbin'] : []);
}

/**
 * The full Chromium on PATH (Debian's /usr/bin/chromium): what the benches and profiles measure in, as people's
 * browsers are. The tests drive testChromium().
 */
export function chromiumPath(): string {
  return onPath('chromium') ?? '/usr/bin/chromium';
}

/**
 * The Chromium the browser tests drive (decision 0144): QUIRE_TEST_CHROMIUM when set; else Debian's
 * chromium-headless-shell on PATH (package chromium-headless-shell: the same engine without the browser's own
 * layer, a third of the full browser's CPU); else, outside CI, the full chromium. Call after needs('chromium'),
 * which fails under CI without the shell and skips elsewhere without either.
 */
export function testChromium(): string {
  return process.env.QUIRE_TEST_CHROMIUM || onPath('chromium-headless-shell') || chromiumPath();
}

/** Whether `path` is a file this process may run. */
function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether a Redis server answers PING at `url`, asked by a child process so the check stays synchronous (2 s at most). */
function redisAnswers(url: string): boolean {
  const { hostname, port } = new URL(url);
  const probe = `const s=require('node:net').connect(${Number(port || 6379)},${JSON.stringify(hostname || '127.0.0.1')});
s.on('connect',()=>s.write('PING\\r\\n'));s.on('data',d=>process.exit(String(d).startsWith('+PONG')?0:1));s.on('error',()=>process.exit(1));`;
  try {
    execFileSync(process.execPath, ['-e', probe], { timeout: 2000, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
