/** An error as the server worded it (its messages say what to do), announced to screen readers. */
export function ErrorNote({ error }: { error: Error }) {
  return <p class="error-note" role="alert">{error.message}</p>;
}
