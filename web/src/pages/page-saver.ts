import { ApiError } from '../api/client.ts';
import type { PageWrite } from '../api/operations.ts';

export type SaveStatus =
  | { state: 'saved' }
  | { state: 'unsaved' }
  | { state: 'saving' }
  | { state: 'retrying'; message: string; at: number }
  | { state: 'failed'; message: string }
  | { state: 'conflict'; message: string }
  /** Not saved, and no retry can save it from this page (a live page that turned read-only or was stopped). */
  | { state: 'stopped'; message: string };

/** Waits before each new attempt of a save that failed for a reason that may pass (network, 5xx, 429). */
const RETRY_DELAYS = [2_000, 5_000, 10_000, 30_000];

/**
 * Saves one page of a change request: writes are sent one at a time, each with the revision the previous
 * one answered as `baseRevision`, so the server merges or refuses (409) an edit made in between by another tab
 * or person instead of overwriting it. The document is sent as it stands when a save starts; edits made during
 * a save are sent by the next one. A failure that may pass is retried; one that will not (400, 403, 413) is
 * shown and waits for the person.
 */
export class PageSaver {
  private pending: PageWrite = {};
  private timer: ReturnType<typeof setTimeout> | undefined;
  private attempt = 0;
  private running = false;
  status: SaveStatus = { state: 'saved' };

  constructor(
    private baseRevision: string,
    private write: (body: PageWrite) => Promise<{ revision: string }>,
    private readDocument: () => PageWrite['document'],
    private onStatus: (status: SaveStatus) => void,
    private onSaved: (revision: string) => void,
    private delay = 800,
    private retryDelays = RETRY_DELAYS,
  ) {}

  get revision(): string {
    return this.baseRevision;
  }

  /** The document changed: save it a moment after typing stops. */
  documentChanged(): void {
    this.dirtyDocument = true;
    this.schedule(this.delay);
  }

  /** Settings (title, description, slug, emoji, parent, position) to save with the next write. */
  change(fields: PageWrite): void {
    this.pending = { ...this.pending, ...fields };
    this.schedule(0);
  }

  get hasUnsavedWork(): boolean {
    return this.status.state !== 'saved';
  }

  /** Saves now (Ctrl/⌘-S, "Retry now"). */
  saveNow(): void {
    this.schedule(0);
  }

  /** After a 409: lay this version over the current one (no baseRevision), as the person chose. */
  overwrite(): void {
    this.forceOverwrite = true;
    this.dirtyDocument = true;
    this.schedule(0);
  }

  dispose(): void {
    clearTimeout(this.timer);
  }

  private dirtyDocument = false;
  private forceOverwrite = false;

  private set(status: SaveStatus): void {
    this.status = status;
    this.onStatus(status);
  }

  private schedule(wait: number): void {
    if (this.status.state === 'conflict' && !this.forceOverwrite) return;
    if (this.status.state !== 'saving') this.set({ state: 'unsaved' });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), wait);
  }

  private async run(): Promise<void> {
    if (this.running) return;
    const body: PageWrite = { ...this.pending };
    if (this.dirtyDocument) body.document = this.readDocument();
    if (Object.keys(body).length === 0) {
      this.set({ state: 'saved' });
      return;
    }
    if (!this.forceOverwrite) body.baseRevision = this.baseRevision;
    this.pending = {};
    this.dirtyDocument = false;
    this.running = true;
    this.set({ state: 'saving' });
    try {
      const { revision } = await this.write(body);
      this.baseRevision = revision;
      this.attempt = 0;
      this.forceOverwrite = false;
      this.onSaved(revision);
      const more = this.dirtyDocument || Object.keys(this.pending).length > 0;
      this.running = false;
      if (more) this.schedule(0);
      else this.set({ state: 'saved' });
    } catch (error) {
      this.running = false;
      // What was sent is not saved: it goes with the next attempt, under anything changed since.
      this.pending = { ...body, ...this.pending };
      delete this.pending.document;
      delete this.pending.baseRevision;
      if (body.document) this.dirtyDocument = true;
      const message = error instanceof Error ? error.message : String(error);
      const status = error instanceof ApiError ? error.status : 0;
      if (status === 409) {
        this.forceOverwrite = false;
        this.set({ state: 'conflict', message });
      } else if (status === 0 || status === 429 || status >= 500) {
        const wait = this.retryDelays[Math.min(this.attempt, this.retryDelays.length - 1)];
        this.attempt++;
        this.set({ state: 'retrying', message, at: Date.now() + wait });
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.run(), wait);
      } else {
        this.set({ state: 'failed', message });
      }
    }
  }
}
