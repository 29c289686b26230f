import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { parseBlobUrl, type BlobLocation } from './blob-location.ts';
import { parseDuration } from './duration.ts';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Threads of the worker pool when QUIRE_WORKERS is not set: one per core, at most 4. */
export function defaultWorkerThreads(): number {
  return Math.min(4, availableParallelism());
}

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
  /** A browser session unused for this many hours ends (QUIRE_SESSION_IDLE_HOURS). */
  sessionIdleHours: number;
  /** A browser session ends this many days after sign-in, used or not (QUIRE_SESSION_MAX_DAYS). */
  sessionMaxDays: number;
  /** Password sign-in attempts one account, or one address, may make per 15 minutes (QUIRE_SIGN_IN_ATTEMPTS). */
  signInAttempts: number;
  /** The master key (32+ bytes) that encrypts secrets at rest and signs cursors; undefined = a key file in dataDir. */
  secretKey?: Buffer;
  /** Whether content imports may fetch from loopback, private, link-local and other non-public addresses. */
  importAllowPrivate: boolean;
  /** Whether webhooks may be delivered to loopback, private, link-local and other non-public addresses. */
  webhookAllowPrivate: boolean;
  /** How long one webhook delivery may take before it is stopped and retried, in milliseconds. */
  webhookTimeoutMs: number;
  /** How many days audit-log entries are kept; older ones are not shown and are removed by a daily job. */
  auditRetentionDays: number;
  /** Where file bytes live: a folder (default `<dataDir>/blobs`) or an S3-compatible bucket (QUIRE_BLOB_URL). */
  blobs: BlobLocation;
  /** Requests one token or address may send per window (0: no limit). */
  rateLimit: number;
  rateLimitWindowSeconds: number;
  /** When set, GET /metrics asks for `Authorization: Bearer <this>`. */
  metricsToken?: string;
  /** On SIGTERM: seconds /readyz answers 503 while still serving, so a load balancer stops sending first. */
  drainSeconds: number;
  /** Background jobs one process runs at once. */
  jobConcurrency: number;
  /** Threads of the worker pool that reads large imports off the event loop (src/workers/pool.ts). */
  workers: number;
  /**
   * QUIRE_WORKERS_WARM: `quire serve` starts every thread of the pool with the server, loads the Markdown reader
   * in each and keeps them (decisions/0142): no first import pays the load, at ~40 MB of memory a thread held (with the worker bundle, decisions/0143; ~100 MB without).
   */
  workersWarm: boolean;
  /** On SIGTERM: seconds to wait for requests and jobs in flight before exiting anyway. */
  shutdownTimeoutSeconds: number;
  /** The machine-translation engine of translations (src/translations/engines.ts). */
  translation: TranslationConfig;
  /** Hours between refreshes of OpenAPI specs given by URL (0: never refreshed on a schedule). */
  openapiRefreshHours: number;
  /** How long fetching one OpenAPI description (or one document it refers to) may take, in seconds. */
  openapiFetchTimeoutSeconds: number;
  /** How long unreachable content is kept before the collector may remove it (QUIRE_GC_GRACE), in ms. */
  gcGraceMs: number;
  /** Hours between scheduled collections (QUIRE_GC_INTERVAL_HOURS; 0: only `quire gc`). */
  gcIntervalHours: number;
  /** Where mail is sent (QUIRE_SMTP_URL: smtp:// or smtps://); undefined: no mail, so no magic links. */
  smtpUrl?: string;
  /** The From of every mail Quire sends (QUIRE_MAIL_FROM). */
  mailFrom: string;
  /** Live co-editing (src/live/): the Redis that lets several processes share live documents (QUIRE_REDIS_URL); absent: this process alone. */
  redisUrl?: string;
  /** Live co-editing limits and timing (QUIRE_LIVE_*). */
  live: {
    maxDocumentBytes: number;
    maxUpdateBytes: number;
    maxUpdatesPerSecond: number;
    idleMs: number;
    maxWaitMs: number;
    recheckSeconds: number;
    /**
     * How often the live server compares its open documents with their change requests' heads (the head poll,
     * decision 0140). QUIRE_LIVE_HEAD_POLL_MS (the configuration table); tests lengthen it so that only a
     * notice between processes can tell a process of a change in time.
     */
    headPollMs: number;
  };
}

export const TRANSLATION_ENGINES = ['auto', 'none', 'apertium', 'deepl', 'libretranslate', 'openai'] as const;
export type TranslationEngineName = (typeof TRANSLATION_ENGINES)[number];

/** QUIRE_TRANSLATION_*: which engine translates, and where it answers. */
export interface TranslationConfig {
  /** 'auto': Apertium when its command is installed, else none. */
  engine: TranslationEngineName;
  /** The HTTP engine's base URL (DeepL, LibreTranslate, an OpenAI-compatible server, or apertium-apy). */
  url?: string;
  apiKey?: string;
  /** The model an OpenAI-compatible server runs. */
  model?: string;
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

/** QUIRE_GC_GRACE, a duration of at least 15 minutes (three times the objects' touch resolution). */
function gcGrace(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 3_600_000;
  const ms = parseDuration(raw);
  if (ms === undefined || ms < 15 * 60_000 || ms > 365 * 86_400_000) {
    throw new ConfigError(`QUIRE_GC_GRACE must be a duration from 15m to 365d, such as 1h or 2d; it is "${raw}".`);
  }
  return ms;
}

function smtpUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('QUIRE_SMTP_URL must be a URL such as smtps://user:password@smtp.example.com:465 or smtp://smtp.example.com:587.');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError(`QUIRE_SMTP_URL must start with smtp:// (STARTTLS when the server offers it) or smtps:// (TLS from the start); it starts with "${url.protocol}".`);
  }
  return raw;
}

function mailFrom(raw: string | undefined, publicUrl: string): string {
  if (raw === undefined || raw === '') return `Quire <quire@${new URL(publicUrl).hostname}>`;
  if (!/^[^\r\n]*<?[^\s@<>]+@[^\s@<>]+>?$/.test(raw.trim())) {
    throw new ConfigError(`QUIRE_MAIL_FROM must be an address, optionally with a name: "Docs <docs@example.com>"; it is "${raw}".`);
  }
  return raw.trim();
}

function blobLocation(env: Env, dataDir: string): BlobLocation {
  try {
    return parseBlobUrl(env.QUIRE_BLOB_URL, dataDir, env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1');
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

function translationConfig(env: Env): TranslationConfig {
  const engine = (env.QUIRE_TRANSLATION_ENGINE || 'auto') as TranslationEngineName;
  if (!TRANSLATION_ENGINES.includes(engine)) {
    throw new ConfigError(`QUIRE_TRANSLATION_ENGINE must be one of ${TRANSLATION_ENGINES.join(', ')}; it is "${env.QUIRE_TRANSLATION_ENGINE}".`);
  }
  const url = env.QUIRE_TRANSLATION_URL ? httpUrl('QUIRE_TRANSLATION_URL', env.QUIRE_TRANSLATION_URL) : undefined;
  if ((engine === 'deepl' || engine === 'libretranslate' || engine === 'openai') && !url) {
    throw new ConfigError(`QUIRE_TRANSLATION_ENGINE=${engine} needs QUIRE_TRANSLATION_URL, the address of the ${engine} server.`);
  }
  if (engine === 'openai' && !env.QUIRE_TRANSLATION_MODEL) {
    throw new ConfigError('QUIRE_TRANSLATION_ENGINE=openai needs QUIRE_TRANSLATION_MODEL, the model the server runs.');
  }
  const config: TranslationConfig = { engine };
  if (url) config.url = url;
  if (env.QUIRE_TRANSLATION_API_KEY) config.apiKey = env.QUIRE_TRANSLATION_API_KEY;
  if (env.QUIRE_TRANSLATION_MODEL) config.model = env.QUIRE_TRANSLATION_MODEL;
  return config;
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
  const publicUrl = httpUrl('QUIRE_PUBLIC_URL', env.QUIRE_PUBLIC_URL || `http://${displayHost}:${port}`);
  return {
    dataDir,
    databaseUrl: databaseUrl(env.QUIRE_DATABASE_URL, dataDir),
    host,
    port,
    publicUrl,
    logLevel,
    bodyLimit: integer(env, 'QUIRE_BODY_LIMIT', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    tokenCacheSeconds: integer(env, 'QUIRE_TOKEN_CACHE_SECONDS', 10, 0, 3600),
    sessionIdleHours: integer(env, 'QUIRE_SESSION_IDLE_HOURS', 72, 1, 24 * 365),
    sessionMaxDays: integer(env, 'QUIRE_SESSION_MAX_DAYS', 30, 1, 365),
    signInAttempts: integer(env, 'QUIRE_SIGN_IN_ATTEMPTS', 10, 1, 10_000),
    secretKey: secretKey(env.QUIRE_SECRET_KEY),
    importAllowPrivate: flag(env, 'QUIRE_IMPORT_ALLOW_PRIVATE'),
    webhookAllowPrivate: flag(env, 'QUIRE_WEBHOOK_ALLOW_PRIVATE'),
    webhookTimeoutMs: integer(env, 'QUIRE_WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    auditRetentionDays: integer(env, 'QUIRE_AUDIT_RETENTION_DAYS', 365, 1, 36_500),
    blobs: blobLocation(env, dataDir),
    rateLimit: integer(env, 'QUIRE_RATE_LIMIT', 1200, 0, 1_000_000),
    rateLimitWindowSeconds: integer(env, 'QUIRE_RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
    metricsToken: env.QUIRE_METRICS_TOKEN || undefined,
    drainSeconds: integer(env, 'QUIRE_DRAIN_SECONDS', 0, 0, 600),
    jobConcurrency: integer(env, 'QUIRE_JOB_CONCURRENCY', 4, 1, 64),
    workers: integer(env, 'QUIRE_WORKERS', defaultWorkerThreads(), 1, 64),
    workersWarm: flag(env, 'QUIRE_WORKERS_WARM'),
    shutdownTimeoutSeconds: integer(env, 'QUIRE_SHUTDOWN_TIMEOUT_SECONDS', 30, 1, 3600),
    translation: translationConfig(env),
    openapiRefreshHours: integer(env, 'QUIRE_OPENAPI_REFRESH_HOURS', 6, 0, 24 * 365),
    gcGraceMs: gcGrace(env.QUIRE_GC_GRACE),
    gcIntervalHours: integer(env, 'QUIRE_GC_INTERVAL_HOURS', 6, 0, 24 * 365),
    openapiFetchTimeoutSeconds: integer(env, 'QUIRE_OPENAPI_FETCH_TIMEOUT_SECONDS', 30, 1, 600),
    smtpUrl: smtpUrl(env.QUIRE_SMTP_URL),
    mailFrom: mailFrom(env.QUIRE_MAIL_FROM, publicUrl),
    redisUrl: env.QUIRE_REDIS_URL || undefined,
    live: {
      maxDocumentBytes: integer(env, 'QUIRE_LIVE_MAX_DOCUMENT_BYTES', 16_000_000, 10_000, 1_000_000_000),
      maxUpdateBytes: integer(env, 'QUIRE_LIVE_MAX_UPDATE_BYTES', 2_000_000, 1_000, 100_000_000),
      maxUpdatesPerSecond: integer(env, 'QUIRE_LIVE_MAX_UPDATES_PER_SECOND', 100, 1, 100_000),
      idleMs: integer(env, 'QUIRE_LIVE_IDLE_MS', 2000, 0, 60_000),
      maxWaitMs: integer(env, 'QUIRE_LIVE_MAX_WAIT_MS', 30_000, 0, 600_000),
      recheckSeconds: integer(env, 'QUIRE_LIVE_RECHECK_SECONDS', 5, 1, 3600),
      headPollMs: integer(env, 'QUIRE_LIVE_HEAD_POLL_MS', 1000, 50, 86_400_000),
    },
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
