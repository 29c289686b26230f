import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as Y from 'yjs';
import { close, connect } from './live-client.ts';

/**
 * A share of bench/live.ts's typing clients, run in a child process so that the clients' own work (50 Yjs
 * documents applying every update) is not measured as the server's: connects `indices.length` Hocuspocus
 * providers to one document, says "ready", types on "go" for `seconds`, then answers the latencies it saw
 * and its own event-loop delay.
 */
export interface ClientsJob {
  url: string;
  name: string;
  token: string;
  indices: number[];
  seconds: number;
  typeEvery: number;
}

export interface ClientsResult {
  samples: number[];
  sent: number;
  loopP99: number;
  loopMax: number;
}

const now = () => performance.timeOrigin + performance.now();


const port = { postMessage: (message: unknown) => process.send!(message), once: (event: 'message', listener: (message: unknown) => void) => process.once(event, listener) };

async function run(job: ClientsJob): Promise<void> {
  const clients = await Promise.all(job.indices.map(() => connect(job.url, job.name, job.token)));
  const samples: number[] = [];
  clients.forEach((client, i) => {
    const own = String(job.indices[i]);
    // Each send stamps its time under the sender's key; every other client measures when it sees it.
    client.doc.getMap<number>('bench').observe((event) => {
      if (event.transaction.local) return;
      const arrived = now();
      for (const key of event.keysChanged) if (key !== own) samples.push(arrived - client.doc.getMap<number>('bench').get(key)!);
    });
  });
  port.postMessage({ type: 'ready' });
  await new Promise<void>((resolve) => port.once('message', () => resolve()));
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let sent = 0;
  const timers = clients.map((client, i) =>
    setInterval(() => {
      sent++;
      client.doc.transact(() => {
        const text = (client.doc.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText;
        text.insert(text.length, String(job.indices[i] % 10));
        client.doc.getMap<number>('bench').set(String(job.indices[i]), now());
      });
    }, job.typeEvery),
  );
  await new Promise((resolve) => setTimeout(resolve, job.seconds * 1000));
  timers.forEach(clearInterval);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  delay.disable();
  clients.forEach(close);
  const result: ClientsResult = { samples, sent, loopP99: delay.percentile(99) / 1e6, loopMax: delay.max / 1e6 };
  port.postMessage({ type: 'done', result });
}

port.once('message', (job) => void run(job as ClientsJob));
