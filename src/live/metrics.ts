import type { Hocuspocus } from '@hocuspocus/server';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** The live server's gauges and counters on /metrics (this process). */
export class LiveMetrics {
  readonly messages: Counter;
  /** Messages sent on live sockets (a plain count, read by /metrics: counted once per recipient). */
  sent = 0;
  readonly updates: Counter;
  readonly refused: Counter<'reason'>;
  readonly writes: Histogram;
  readonly rechecks: Counter;
  private readonly sizes = new Map<string, number>();

  constructor(registry: Registry, server: () => Hocuspocus, appends: { batches: number }) {
    const registers = [registry];
    new Gauge({ name: 'quire_live_documents', help: 'Live documents open in this process', registers, collect() { this.set(server().getDocumentsCount()); } });
    new Gauge({ name: 'quire_live_connections', help: 'Live connections (one per person and document) in this process', registers, collect() { this.set(server().getConnectionsCount()); } });
    const sizes = this.sizes;
    new Gauge({ name: 'quire_live_document_bytes', help: 'Stored Yjs bytes of the live documents open in this process (state and updates not yet compacted)', registers, collect() { this.set([...sizes.values()].reduce((a, b) => a + b, 0)); } });
    this.messages = new Counter({ name: 'quire_live_messages_total', help: 'Messages received on live connections (sync, awareness)', registers });
    const metrics = this;
    new Counter({ name: 'quire_live_messages_sent_total', help: 'Messages sent on live connections (updates, awareness, acknowledgements), one per recipient', registers, collect() { this.reset(); this.inc(metrics.sent); } });
    new Counter({ name: 'quire_live_update_batches_total', help: 'Batches the updates of live connections were stored in (one insert or transaction each; an update is acknowledged after its batch commits)', registers, collect() { this.reset(); this.inc(appends.batches); } });
    this.updates = new Counter({ name: 'quire_live_updates_total', help: 'Document updates received from writers and stored', registers });
    this.refused = new Counter({ name: 'quire_live_refused_total', help: 'Live connections closed by a limit, by reason', labelNames: ['reason'], registers });
    this.rechecks = new Counter({ name: 'quire_live_access_rechecks_total', help: 'Re-checks of every live connection\'s session or token and access (periodic, or on a notice of an access change)', registers });
    this.writes = new Histogram({ name: 'quire_live_revision_write_seconds', help: 'Time to write a live document to its change request as a revision', buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers });
  }

  size(name: string): number {
    return this.sizes.get(name) ?? 0;
  }

  setSize(name: string, bytes: number): void {
    this.sizes.set(name, bytes);
  }

  forget(name: string): void {
    this.sizes.delete(name);
  }
}
