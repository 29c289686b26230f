import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig, resolveMasterKey, type Config } from '../config.ts';
import type { Context } from '../context.ts';
import { isEmail, normalizeEmail } from '../modules/users/email.ts';
import { parseDuration } from '../duration.ts';

// Every other module is imported where a command needs it: the services are most of Quire's code, and
// `--help`, a usage error or a missing database need none of them (each run of the CLI is a new process).

const USAGE = `Usage: quire <command> [options]

Commands:
  serve                                   Run the server (the default). Applies pending migrations first.
  migrate                                 Apply pending database migrations.
  init --org <title> --email <email> [--name <name>] [--json]
                                          On an empty database: create the first organization, its admin
                                          and an API token (printed once).
  token create --email <email> [--name <name>] [--label <text>] [--expires-in <30d>] [--json]
                                          Print a new API token for a user (created if there is none, named
                                          <name>); --label says what the token is for; --expires-in
                                          (90m, 12h, 30d, 2w) makes it stop working after that long.
  token list --email <email> [--json]     List a user's API tokens: id, status, expiry, last use (never
                                          the secrets).
  token revoke <id> [--json]              Revoke an API token: running servers refuse it within
                                          QUIRE_TOKEN_CACHE_SECONDS.
  org create --title <title> --owner <email> [--json]
                                          Create another organization owned by that user.
  user password reset --email <email> [--stdin] [--json]
                                          Print a one-time link (valid 1 hour) with which the user sets a
                                          new password; with --stdin, set the password read from standard
                                          input instead (and sign the user out everywhere).
  session revoke --email <email> [--json] Sign a user out everywhere: every browser session of theirs is
                                          refused at once, by every server.
  import <file-or-folder> --space <id> [--json]
                                          Import local docs into a space as one new revision: a folder of
                                          Markdown, or a .zip, .md, .html or .docx file.
  backup <file> [--json]                  Write a backup (SQLite database, key file, blobs) to <file>, a
                                          .tar.gz; safe while the server runs. SQLite only.
  restore <file> [--json]                 Restore a backup into the configured data folder, which must
                                          not hold a database yet.
  gc [--dry-run] [--json]                 Remove content (revisions, page objects, blobs) that nothing can
                                          reach any more and that is older than QUIRE_GC_GRACE; with
                                          --dry-run, only count it. Safe while servers run.
  openapi publish --org <id> --spec <slug> <file-or-url> [--json]
                                          Create or update an OpenAPI specification from a file (JSON or
                                          YAML) or a URL, process it, and print its state and any error.
  git import|export --space <id> --url <url> --ref refs/heads/<branch> [--project-dir <dir>]
                    [--message <m>] [--force] [--json]
                                          Run a Git Sync import or export now, in the foreground, with a
                                          progress bar by stage; exits 1 when it failed.
  git status --space <id> [--json]        The space's Git Sync: last synced commit, automatic sync, recent
                                          operations.

Configuration comes from the environment (QUIRE_DATA_DIR, QUIRE_DATABASE_URL, QUIRE_PUBLIC_URL, HOST, PORT,
QUIRE_LOG_LEVEL, QUIRE_SECRET_KEY); see README.md.`;

class UsageError extends Error {}

type Out = { json: boolean };

function print(out: Out, object: Record<string, unknown>, lines: string[]): void {
  process.stdout.write(out.json ? JSON.stringify(object) + '\n' : lines.join('\n') + '\n');
}

function parse(args: string[], options: ParseArgsConfig['options']) {
  try {
    return parseArgs({ args, options: { ...options, json: { type: 'boolean' } }, strict: true, allowPositionals: false }).values as Record<string, string | boolean | undefined>;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required.`);
  return value.trim();
}

function email(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = required(values, name);
  if (!isEmail(value)) throw new UsageError(`--${name} must be an e-mail address; "${value}" is not.`);
  return value;
}

function title(value: string, name: string): string {
  if (value.length < 2 || value.length > 255) throw new UsageError(`--${name} must be 2 to 255 characters long.`);
  return value;
}

/**
 * Refuses to go on when no Quire database is where the configuration points. Only `serve`, `migrate` and
 * `init` make one: any other command run from the wrong folder (QUIRE_DATA_DIR defaults to ./data) would
 * otherwise work on a new, empty database and fail later with a misleading message.
 */
async function requireDatabase(config: Config): Promise<void> {
  const { databaseExists, databaseLocation } = await import('../db/database.ts');
  if (await databaseExists(config.databaseUrl)) return;
  const where = databaseLocation(config.databaseUrl);
  const hint = config.databaseUrl.startsWith('sqlite:')
    ? `QUIRE_DATA_DIR is ${config.dataDir} (a relative QUIRE_DATA_DIR, or its default ./data, is read from the current folder, ${process.cwd()}). Run the command from the folder that holds the data folder, set QUIRE_DATA_DIR or QUIRE_DATABASE_URL, or create a database with "quire init" or "quire migrate".`
    : 'Check QUIRE_DATABASE_URL, or create Quire\'s tables there with "quire migrate" or "quire init".';
  throw new MissingDatabaseError(`no Quire database at ${where}. ${hint}`);
}

class MissingDatabaseError extends Error {}

/**
 * Runs `work` with a Context over the migrated database (no acting user: the operator is trusted). Only a
 * command that may start a Quire (`init`) passes `create`; the others need the database to exist.
 */
async function withContext<T>(config: Config, work: (ctx: Context) => Promise<T>, options: { create?: boolean } = {}): Promise<T> {
  if (!options.create) await requireDatabase(config);
  const masterKey = resolveMasterKey(config);
  const { openMigratedDatabase } = await import('../db/database.ts');
  const { database } = await openMigratedDatabase(config);
  try {
    const [{ createContext }, { createServices }] = await Promise.all([import('../context.ts'), import('../services.ts')]);
    const ctx = createContext(createServices({ config, database, masterKey }), null);
    return await work(ctx);
  } finally {
    await database.close();
  }
}

async function init(config: Config, args: string[]): Promise<number> {
  const values = parse(args, { org: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' } });
  const orgTitle = title(required(values, 'org'), 'org');
  const ownerEmail = email(values, 'email');
  const out = { json: values.json === true };
  return withContext(config, async (ctx) => {
    const [{ createOrganization }, { issueApiToken }] = await Promise.all([import('../modules/orgs/service.ts'), import('../modules/users/tokens.ts')]);
    const existing = await ctx.db.selectFrom('organizations').select('id').limit(1).executeTakeFirst();
    if (existing) {
      process.stderr.write('quire init: this Quire is already initialised (it has an organization). Use "quire token create" for a new token, or "quire org create" for another organization.\n');
      return 1;
    }
    const { organization, owner } = await createOrganization(ctx, { title: orgTitle, ownerEmail, ownerName: values.name as string | undefined });
    const token = await issueApiToken(ctx, owner.id, 'init');
    print(out, { token, organization: organization.id, user: owner.id }, [
      `Created organization "${organization.title}" (${organization.id}) with ${owner.email} as its admin.`,
      '',
      `API token (shown once, keep it safe): ${token}`,
      '',
      `Try it: curl -H "Authorization: Bearer ${token}" ${config.publicUrl}/v1/orgs`,
    ]);
    return 0;
  }, { create: true });
}

async function tokenCreate(config: Config, args: string[]): Promise<number> {
  const values = parse(args, { email: { type: 'string' }, name: { type: 'string' }, label: { type: 'string' }, 'expires-in': { type: 'string' } });
  const userEmail = email(values, 'email');
  const expiresIn = values['expires-in'];
  if (typeof expiresIn === 'string' && !(Number(parseDuration(expiresIn)) > 0)) {
    throw new UsageError(`--expires-in must be a duration such as 90m, 12h, 30d or 2w; "${expiresIn}" is not.`);
  }
  const out = { json: values.json === true };
  return withContext(config, async (ctx) => {
    const [{ findOrCreateUser }, { createApiToken }] = await Promise.all([import('../modules/users/service.ts'), import('../modules/users/tokens.ts')]);
    const user = await findOrCreateUser(ctx, userEmail, values.name as string | undefined);
    const label = typeof values.label === 'string' ? values.label : 'cli';
    const { token, row } = await createApiToken(ctx, user.id, label, typeof expiresIn === 'string' ? { expiresIn } : {});
    print(out, { token, id: row.id, user: user.id, created: user.created, expiresAt: row.expires_at }, [
      `${user.created ? 'Created user' : 'User'} ${user.email} (${user.id}).`,
      `API token ${row.id}${row.expires_at ? `, expires at ${row.expires_at}` : ', never expires'}.`,
      `API token (shown once, keep it safe): ${token}`,
    ]);
    return 0;
  });
}

async function tokenList(config: Config, args: string[]): Promise<number> {
  const values = parse(args, { email: { type: 'string' } });
  const userEmail = normalizeEmail(email(values, 'email'));
  const out = { json: values.json === true };
  return withContext(config, async (ctx) => {
    const { allUserTokens, tokenStatus } = await import('../modules/users/tokens.ts');
    const user = await ctx.db.selectFrom('users').select('id').where('email', '=', userEmail).executeTakeFirst();
    if (!user) {
      process.stderr.write(`quire token list: no user has the address ${userEmail}.\n`);
      return 1;
    }
    const tokens = await allUserTokens(ctx, user.id);
    const items = tokens.map((row) => ({
      id: row.id,
      name: row.name,
      status: tokenStatus(ctx, row),
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      lastUsedAt: row.last_used_at,
      revokedAt: row.revoked_at,
    }));
    const lines = items.length === 0 ? [`${userEmail} has no API token.`] : items.map((t) =>
      [t.id, t.status.padEnd(7), `created ${t.createdAt}`, t.expiresAt ? `expires ${t.expiresAt}` : 'never expires', t.lastUsedAt ? `last used ${t.lastUsedAt}` : 'never used', t.name ?? ''].join('  ').trimEnd(),
    );
    print(out, { user: user.id, tokens: items }, lines);
    return 0;
  });
}

async function tokenRevoke(config: Config, args: string[]): Promise<number> {
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: { json: { type: 'boolean' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== 1) throw new UsageError('token revoke takes one token id: quire token revoke <id> (see quire token list).');
  const out = { json: parsed.values.json === true };
  return withContext(config, async (ctx) => {
    const { revokeApiToken } = await import('../modules/users/tokens.ts');
    const found = await ctx.db.selectFrom('api_tokens').select('id').where('id', '=', parsed.positionals[0]).executeTakeFirst();
    if (!found) {
      process.stderr.write(`quire token revoke: no API token has the id "${parsed.positionals[0]}".\n`);
      return 1;
    }
    const { row, revoked } = await revokeApiToken(ctx, found.id);
    print(out, { id: row.id, revoked, revokedAt: row.revoked_at }, [
      revoked
        ? `Revoked API token ${row.id}: refused from now on (by running servers within QUIRE_TOKEN_CACHE_SECONDS).`
        : `API token ${row.id} was revoked already, at ${row.revoked_at}.`,
    ]);
    return 0;
  });
}

/** The user with this address, or a message on stderr and undefined. */
async function existingUser(ctx: Context, command: string, address: string): Promise<{ id: string; email: string } | undefined> {
  const user = await ctx.db.selectFrom('users').select(['id', 'email']).where('email', '=', normalizeEmail(address)).executeTakeFirst();
  if (!user) process.stderr.write(`quire ${command}: no user has the address ${normalizeEmail(address)}.\n`);
  return user;
}

/** Standard input, whole (the password of `user password reset --stdin`). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function passwordReset(config: Config, args: string[]): Promise<number> {
  const values = parse(args, { email: { type: 'string' }, stdin: { type: 'boolean' } });
  const address = email(values, 'email');
  const out = { json: values.json === true };
  // Read before opening the database, so a slow pipe holds no connection.
  const typed = values.stdin === true ? (await readStdin()).replace(/\r?\n$/, '') : undefined;
  return withContext(config, async (ctx) => {
    const [{ createPasswordLink }, { passwordProblem, storePassword }, { endUserSessions }] = await Promise.all([
      import('../sessions/password-links.ts'),
      import('../sessions/passwords.ts'),
      import('../sessions/store.ts'),
    ]);
    const user = await existingUser(ctx, 'user password reset', address);
    if (!user) return 1;
    if (typed === undefined) {
      const link = await createPasswordLink(ctx, user.id, 'reset', null);
      print(out, { user: user.id, url: link.url, expiresAt: link.expiresAt }, [
        `A one-time link for ${user.email} to choose a new password (shown once; valid until ${link.expiresAt}):`,
        link.url,
        'Using it signs the person out everywhere else. A newer link replaces this one.',
      ]);
      return 0;
    }
    const problem = passwordProblem(typed, user.email);
    if (problem) {
      process.stderr.write(`quire user password reset: the password is refused. ${problem}\n`);
      return 1;
    }
    await storePassword(ctx, user.id, typed);
    const ended = await endUserSessions(ctx, user.id);
    print(out, { user: user.id, passwordSet: true, sessionsEnded: ended }, [`Set a new password for ${user.email}; ${ended} session${ended === 1 ? '' : 's'} signed out.`]);
    return 0;
  });
}

async function sessionRevoke(config: Config, args: string[]): Promise<number> {
  const values = parse(args, { email: { type: 'string' } });
  const address = email(values, 'email');
  const out = { json: values.json === true };
  return withContext(config, async (ctx) => {
    const { endUserSessions } = await import('../sessions/store.ts');
    const user = await existingUser(ctx, 'session revoke', address);
    if (!user) return 1;
    const ended = await endUserSessions(ctx, user.id);
    print(out, { user: user.id, sessionsEnded: ended }, [`Signed ${user.email} out everywhere: ${ended} session${ended === 1 ? '' : 's'} ended, refused at once by every server.`]);
    return 0;
  });
}

async function orgCreate(config: Config, args: string[]): Promise<number> {
  const values = parse(args, { title: { type: 'string' }, owner: { type: 'string' } });
  const orgTitle = title(required(values, 'title'), 'title');
  const ownerEmail = email(values, 'owner');
  const out = { json: values.json === true };
  return withContext(config, async (ctx) => {
    const { createOrganization } = await import('../modules/orgs/service.ts');
    const { organization, owner } = await createOrganization(ctx, { title: orgTitle, ownerEmail });
    print(out, { organization: organization.id, owner: owner.id }, [
      `Created organization "${organization.title}" (${organization.id}) owned by ${owner.email}.`,
    ]);
    return 0;
  });
}

async function importFiles(config: Config, args: string[]): Promise<number> {
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: { space: { type: 'string' }, json: { type: 'boolean' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== 1) throw new UsageError('import takes one file or folder: quire import <file-or-folder> --space <id>.');
  const spaceId = required(parsed.values, 'space');
  return withContext(config, async (ctx) => {
    const { importCommand } = await import('./import.ts');
    return importCommand(ctx, { path: parsed.positionals[0], spaceId, json: parsed.values.json === true });
  });
}

async function backupOrRestore(config: Config, command: 'backup' | 'restore', args: string[]): Promise<number> {
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: { json: { type: 'boolean' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== 1) throw new UsageError(`${command} takes one file: quire ${command} <file>.`);
  const json = parsed.values.json === true;
  const { backupCommand, restoreCommand } = await import('./backup.ts');
  return command === 'backup' ? backupCommand(config, parsed.positionals[0], json) : restoreCommand(config, parsed.positionals[0], json);
}

async function openapiPublish(config: Config, args: string[]): Promise<number> {
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: { org: { type: 'string' }, spec: { type: 'string' }, json: { type: 'boolean' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== 1) throw new UsageError('openapi publish takes one file or URL: quire openapi publish --org <id> --spec <slug> <file-or-url>.');
  const organizationId = required(parsed.values, 'org');
  const slug = required(parsed.values, 'spec');
  return withContext(config, async (ctx) => {
    const { openAPIPublishCommand } = await import('./openapi.ts');
    return openAPIPublishCommand(ctx, { organizationId, slug, source: parsed.positionals[0], json: parsed.values.json === true });
  });
}

async function gc(config: Config, args: string[]): Promise<number> {
  const values = parse(args, { 'dry-run': { type: 'boolean' } });
  const out = { json: values.json === true };
  return withContext(config, async (ctx) => {
    const { collectGarbage } = await import('../content/gc.ts');
    const report = await collectGarbage(ctx, { dryRun: values['dry-run'] === true });
    const verb = report.dryRun ? 'Would remove' : 'Removed';
    print(out, { ...report }, [
      `${verb} ${report.removed.revisions} revision(s), ${report.removed.objects} content object(s) and ${report.removed.blobs} blob(s) (${report.removed.blobBytes} bytes), with ${report.derived.linkFacts} stored link fact(s) and ${report.derived.linkAnalyses} link analysis(es)`,
      `unreachable and untouched since ${report.cutoff}; kept ${report.reachable.revisions} reachable revision(s), ${report.reachable.objects} object(s), ${report.reachable.blobs} blob(s).`,
    ]);
    return 0;
  });
}

async function gitCommand(config: Config, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'status') {
    const values = parse(rest, { space: { type: 'string' } });
    const spaceId = required(values, 'space');
    return withContext(config, async (ctx) => {
      const { gitStatusCommand } = await import('./git.ts');
      return gitStatusCommand(ctx, spaceId, values.json === true);
    });
  }
  if (sub !== 'import' && sub !== 'export') throw new UsageError('Did you mean "quire git import|export --space <id> --url <url> --ref refs/heads/<branch>" or "quire git status --space <id>"?');
  const values = parse(rest, { space: { type: 'string' }, url: { type: 'string' }, ref: { type: 'string' }, 'project-dir': { type: 'string' }, message: { type: 'string' }, force: { type: 'boolean' } });
  const command = {
    direction: sub,
    spaceId: required(values, 'space'),
    url: required(values, 'url'),
    ref: required(values, 'ref'),
    projectDirectory: typeof values['project-dir'] === 'string' ? values['project-dir'] : undefined,
    message: typeof values.message === 'string' ? values.message : undefined,
    force: values.force === true,
    json: values.json === true,
  } as const;
  if (command.message !== undefined && sub === 'import') throw new UsageError('--message is for git export.');
  return withContext(config, async (ctx) => {
    const { gitOperationCommand } = await import('./git.ts');
    return gitOperationCommand(ctx, command);
  });
}

async function migrate(config: Config): Promise<number> {
  const { migrateToLatest, openDatabase } = await import('../db/database.ts');
  const database = openDatabase(config.databaseUrl);
  try {
    const applied = await migrateToLatest(database);
    process.stdout.write(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}\n` : 'The database is up to date.\n');
    return 0;
  } finally {
    await database.close();
  }
}

/** Runs one CLI command; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command = 'serve', ...rest] = argv;
  try {
    if (command === '--help' || command === '-h' || command === 'help') {
      process.stdout.write(USAGE + '\n');
      return 0;
    }
    const config = loadConfig();
    switch (command) {
      case 'serve':
        if (rest.length) throw new UsageError(`serve takes no arguments; configure it with the environment.`);
        // Loaded only here: the HTTP app is most of Quire's code, and the other commands start faster without it.
        const { serve } = await import('../server.ts');
        await serve(config);
        return 0;
      case 'migrate':
        return await migrate(config);
      case 'init':
        return await init(config, rest);
      case 'token':
        if (rest[0] === 'create') return await tokenCreate(config, rest.slice(1));
        if (rest[0] === 'list') return await tokenList(config, rest.slice(1));
        if (rest[0] === 'revoke') return await tokenRevoke(config, rest.slice(1));
        throw new UsageError('Did you mean "quire token create --email <email>", "quire token list --email <email>" or "quire token revoke <id>"?');
      case 'user':
        if (rest[0] === 'password' && rest[1] === 'reset') return await passwordReset(config, rest.slice(2));
        throw new UsageError('Did you mean "quire user password reset --email <email>"?');
      case 'session':
        if (rest[0] === 'revoke') return await sessionRevoke(config, rest.slice(1));
        throw new UsageError('Did you mean "quire session revoke --email <email>"?');
      case 'gc':
        return await gc(config, rest);
      case 'org':
        if (rest[0] !== 'create') throw new UsageError('Did you mean "quire org create --title <title> --owner <email>"?');
        return await orgCreate(config, rest.slice(1));
      case 'import':
        return await importFiles(config, rest);
      case 'backup':
      case 'restore':
        return await backupOrRestore(config, command, rest);
      case 'openapi':
        if (rest[0] !== 'publish') throw new UsageError('Did you mean "quire openapi publish --org <id> --spec <slug> <file-or-url>"?');
        return await openapiPublish(config, rest.slice(1));
      case 'git':
        return await gitCommand(config, rest);
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`quire: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof MissingDatabaseError) {
      process.stderr.write(`quire ${command}: ${error.message}\n`);
      return 1;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`quire: configuration error: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`quire: ${(error as Error).message}\n`);
    return 1;
  }
}
