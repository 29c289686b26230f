import { freePort } from '../helpers/ports.ts';
import type { DestinationStream } from 'pino';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import type { DialectName } from '../../src/db/database.ts';
import { CHROMIUM, launchChromium } from '../helpers/chromium.ts';

/** What the federated sign-in browser tests share: Chromium, a listening Quire whose log is kept, free ports. */
export { CHROMIUM };

// Skipped only on a developer machine without Chromium; in CI (CI=true, .ci/run installs it) a missing browser fails.

export { freePort };

/** Every line Quire logged, at the most detailed level. */
export class LogCapture implements DestinationStream {
  readonly lines: string[] = [];
  write(line: string): void {
    this.lines.push(line);
  }
  get text(): string {
    return this.lines.join('');
  }
}

export interface ListeningQuire {
  t: TestApp;
  base: string;
  log: LogCapture;
}

/** A Quire on the given database listening on 127.0.0.1, logging at trace level into a capture, outbound guard open to loopback. */
export async function startQuire(env: Record<string, string> = {}, dialect: DialectName = 'sqlite'): Promise<ListeningQuire> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const log = new LogCapture();
  const t = await createTestApp(dialect, { QUIRE_PUBLIC_URL: base, QUIRE_LOG_LEVEL: 'trace', QUIRE_IMPORT_ALLOW_PRIVATE: '1', ...env }, { logStream: log });
  await t.app.listen({ host: '127.0.0.1', port });
  return { t, base, log };
}

export { launchChromium };
