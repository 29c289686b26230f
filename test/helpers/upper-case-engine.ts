import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A machine-translation engine the tests start, and how to stop it. */
export interface TestEngine {
  url: string;
  close: () => Promise<void>;
}

/**
 * A DeepL-compatible engine on 127.0.0.1 that answers each text in upper case, so that a translation shows
 * (set QUIRE_TRANSLATION_ENGINE=deepl and QUIRE_TRANSLATION_URL to its url).
 */
export async function startUpperCaseEngine(): Promise<TestEngine> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text: string[] };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ translations: body.text.map((text) => ({ detected_source_language: 'EN', text: text.toUpperCase() })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
