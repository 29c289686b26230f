import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Everything Quire reads from its environment, validated once at start. See the table in README.md. */
export interface Config {
  dataDir: string;
  databaseUrl: string;
  host: string;
  port: number;
  /** Base of every `urls` member, without a trailing slash. */
  publicUrl: string;
  logLevel: LogLevel;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** How long a resolved API token is remembered in one process (0: not at all). */
  tokenCacheSeconds: number;
  /** The master key (32+ bytes) that encrypts secrets at rest and signs cursors; undefined = a key file in dataDir. */
  secretKey?: Buffer;
  /** Whether content imports may fetch from loopback, private, link-local and other non-public addresses. */
  importAllowPrivate: boolean;
  /** Hours between refreshes of OpenAPI specs given by URL (0: never refreshed on a schedule). */
  openapiRefreshHours: number;
  /** How long fetching one OpenAPI description (or one document it refers to) may take, in seconds. */
  openapiFetchTimeoutSeconds: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; it is "${raw}".`);
  }
  return Number(raw);
}

function flag(env: Env, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false' || raw === 'no') return false;
  if (raw === '1' || raw === 'true' || raw === 'yes') return true;
  throw new ConfigError(`${name} must be 1 (on) or 0 (off); it is "${env[name]}".`);
}

function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL such as https://docs.example.com; it is "${raw}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must start with http:// or https://; it is "${raw}".`);
  }
  if (url.search || url.hash) throw new ConfigError(`${name} must not carry a query or a fragment; it is "${raw}".`);
  return url.toString().replace(/\/+$/, '');
}

function databaseUrl(raw: string | undefined, dataDir: string): string {
  if (raw === undefined || raw === '') return `sqlite:${join(dataDir, 'quire.db')}`;
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('QUIRE_DATABASE_URL is not a valid postgres:// URL.');
    }
    return raw;
  }
  if (raw.startsWith('sqlite:')) return raw;
  throw new ConfigError(
    'QUIRE_DATABASE_URL must be "postgres://user@host:port/db" for PostgreSQL or "sqlite:/path/to/file.db" for SQLite.',
  );
}

function secretKey(raw: string | undefined): Buffer | undefined {
  if (raw === undefined || raw === '') return undefined;
  const key = /^[0-9a-fA-F]+$/.test(raw) && raw.length % 2 === 0 ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length < 32) {
    throw new ConfigError('QUIRE_SECRET_KEY must hold at least 32 bytes, as hex or base64 (try: openssl rand -hex 32).');
  }
  return key;
}

export function loadConfig(env: Env = process.env): Config {
  const dataDir = resolve(env.QUIRE_DATA_DIR || './data');
  const host = env.HOST || '127.0.0.1';
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const logLevel = (env.QUIRE_LOG_LEVEL || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`QUIRE_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; it is "${env.QUIRE_LOG_LEVEL}".`);
  }
  const displayHost = host.includes(':') ? `[${host}]` : host;
  return {
    dataDir,
    databaseUrl: databaseUrl(env.QUIRE_DATABASE_URL, dataDir),
    host,
    port,
    publicUrl: httpUrl('QUIRE_PUBLIC_URL', env.QUIRE_PUBLIC_URL || `http://${displayHost}:${port}`),
    logLevel,
    bodyLimit: integer(env, 'QUIRE_BODY_LIMIT', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    tokenCacheSeconds: integer(env, 'QUIRE_TOKEN_CACHE_SECONDS', 10, 0, 3600),
    secretKey: secretKey(env.QUIRE_SECRET_KEY),
    importAllowPrivate: flag(env, 'QUIRE_IMPORT_ALLOW_PRIVATE'),
    openapiRefreshHours: integer(env, 'QUIRE_OPENAPI_REFRESH_HOURS', 6, 0, 24 * 365),
    openapiFetchTimeoutSeconds: integer(env, 'QUIRE_OPENAPI_FETCH_TIMEOUT_SECONDS', 30, 1, 600),
  };
}

/**
 * The master key: QUIRE_SECRET_KEY when set, else `secret.key` in the data folder, made on first use
 * (readable by the owner only). Several processes sharing one PostgreSQL database must share QUIRE_SECRET_KEY.
 */
export function resolveMasterKey(config: Config): Buffer {
  if (config.secretKey) return config.secretKey;
  const file = join(config.dataDir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  if (key.length < 32) throw new ConfigError(`${file} does not hold a 32-byte hex key; remove it or set QUIRE_SECRET_KEY.`);
  return key;
}
