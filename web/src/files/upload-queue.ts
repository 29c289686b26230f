import { ApiError } from '../api/client.ts';
import type { RevisionFile } from '../api/operations.ts';
import { sendFile } from './upload.ts';

/** One file on its way into the change request. */
export interface Upload {
  id: number;
  file: File;
  state: 'uploading' | 'waiting' | 'failed';
  /** 0 to 1, while uploading. */
  progress: number;
  /** Why it failed (the server's message), while failed or waiting to try again. */
  error?: string;
  /** Tries so far. */
  tries: number;
}

/** Automatic tries for a failure that may pass (no connection, the server busy or failing); then the person is asked. */
const AUTOMATIC_TRIES = 3;
const RETRY_DELAYS_MS = [1_000, 4_000];

const passing = (error: unknown) => error instanceof ApiError && (error.status === 0 || error.status === 429 || error.status >= 500);

/**
 * The uploads of one open page (paste, drop, the files panel): each file is sent with its progress shown;
 * a failure that may pass is tried again by itself, and any failure stays in the list with its reason and
 * "Try again" until the person dismisses it, so no file is ever dropped silently. When a file arrives,
 * `arrived` puts it into the page (the caller knows where).
 */
export class UploadQueue {
  private items: Upload[] = [];
  private next = 1;
  private listeners = new Set<() => void>();
  private timers = new Map<number, ReturnType<typeof setTimeout>>();
  private aborts = new Map<number, () => void>();
  /** Said to screen readers: the last upload that arrived. */
  announcement = '';

  constructor(
    private readonly spaceId: string,
    private readonly changeRequestId: string,
    private readonly arrived: (file: RevisionFile, upload: Upload) => void,
  ) {}

  get uploads(): readonly Upload[] {
    return this.items;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts uploading files; returns their uploads (their ids are what `arrived` is told). */
  add(files: Iterable<File>): Upload[] {
    const added = [...files].map((file): Upload => ({ id: this.next++, file, state: 'uploading', progress: 0, tries: 0 }));
    this.items = [...this.items, ...added];
    for (const upload of added) this.send(upload.id);
    this.changed();
    return added;
  }

  /** Tries a failed upload again now. */
  retry(id: number): void {
    clearTimeout(this.timers.get(id));
    this.update(id, { state: 'uploading', progress: 0, error: undefined });
    this.send(id);
  }

  /** Gives up on a failed upload (the person said so). */
  dismiss(id: number): void {
    clearTimeout(this.timers.get(id));
    this.aborts.get(id)?.();
    this.items = this.items.filter((upload) => upload.id !== id);
    this.changed();
  }

  /** Whether files are still on their way or failed without being dismissed (closing the page would lose them). */
  get pending(): boolean {
    return this.items.length > 0;
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    for (const abort of this.aborts.values()) abort();
    this.listeners.clear();
  }

  private send(id: number): void {
    const upload = this.items.find((item) => item.id === id);
    if (!upload) return;
    const tries = upload.tries + 1;
    this.update(id, { tries });
    const { done, abort } = sendFile(this.spaceId, this.changeRequestId, upload.file, (progress) => this.update(id, { progress }));
    this.aborts.set(id, abort);
    done.then(
      (file) => {
        this.aborts.delete(id);
        const finished = this.items.find((item) => item.id === id);
        if (!finished) return;
        this.items = this.items.filter((item) => item.id !== id);
        this.announcement = `${file.name} uploaded.`;
        this.arrived(file, finished);
        this.changed();
      },
      (error: unknown) => {
        this.aborts.delete(id);
        if (!this.items.some((item) => item.id === id)) return;
        const message = error instanceof Error ? error.message : String(error);
        if (passing(error) && tries < AUTOMATIC_TRIES) {
          this.update(id, { state: 'waiting', error: message });
          this.timers.set(id, setTimeout(() => this.retry(id), RETRY_DELAYS_MS[tries - 1] ?? 4_000));
        } else {
          this.update(id, { state: 'failed', error: message });
        }
      },
    );
  }

  private update(id: number, patch: Partial<Upload>): void {
    this.items = this.items.map((item) => (item.id === id ? { ...item, ...patch } : item));
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
