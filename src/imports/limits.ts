import { BadRequest } from '../errors.ts';

/** The bounds of one import. Every one of them, when crossed, refuses the import with a 400 that says which. */
export interface ImportLimits {
  /** Largest download (the source itself, and each page or image fetched), in bytes. */
  maxDownloadBytes: number;
  /** Most entries an archive may hold (files and folders). */
  maxEntries: number;
  /** Largest total of the unpacked sizes of an archive's entries, in bytes. */
  maxUnpackedBytes: number;
  /** Largest unpacked / packed ratio of one archive entry (a higher one is taken for a zip bomb). */
  maxCompressionRatio: number;
  /** Entries smaller than this are never refused for their ratio (tiny repetitive files compress very well). */
  ratioFloorBytes: number;
  /** Whole import, from the first byte fetched to the revision written, in milliseconds. */
  timeoutMs: number;
  /** Website imports: most pages fetched, and most links followed from the start page. */
  maxPages: number;
  maxDepth: number;
  /** Most images downloaded for one html, website or docx import. */
  maxImages: number;
  /** Most redirects followed for one download. */
  maxRedirects: number;
}

export const DEFAULT_LIMITS: ImportLimits = {
  maxDownloadBytes: 50 * 1024 * 1024,
  maxEntries: 10_000,
  maxUnpackedBytes: 500 * 1024 * 1024,
  maxCompressionRatio: 100,
  ratioFloorBytes: 1024 * 1024,
  timeoutMs: 60_000,
  maxPages: 50,
  maxDepth: 3,
  maxImages: 200,
  maxRedirects: 5,
};

/** The refusal of an import that ran out of time. */
export function timeUp(limits: Pick<ImportLimits, 'timeoutMs'>): BadRequest {
  return new BadRequest(`The import took longer than ${Math.round(limits.timeoutMs / 1000)} seconds and was stopped; nothing was changed. Import a smaller source, or split it.`);
}

export { megabytes } from '../net/fetch.ts';

/**
 * The clock of one import: an AbortSignal that fires when the time is up, and a check to call between
 * steps that refuses the import with a 400 once it has.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;

  constructor(readonly timeoutMs: number) {
    this.timer = setTimeout(() => this.controller.abort(), timeoutMs);
    this.timer.unref();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get expired(): boolean {
    return this.controller.signal.aborted;
  }

  /** Throws the import's time-out refusal when the time is up. */
  check(): void {
    if (this.expired) throw this.error();
  }

  error(): BadRequest {
    return timeUp(this);
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}
