/** Whether this process is shutting down: /readyz answers 503 from the first moment, so traffic moves away. */
export class Lifecycle {
  draining = false;
}
