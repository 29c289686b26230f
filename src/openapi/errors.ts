/** The error codes of the client's document, and Quire's sentence about what to do. */
export type ProcessErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';

/** A processing failure the spec records (its previous good version stays the latest); not a job failure. */
export class SpecProcessingError extends Error {
  constructor(
    readonly code: ProcessErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SpecProcessingError';
  }
}
