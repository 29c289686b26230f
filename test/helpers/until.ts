/**
 * Waits until `check` holds, asking every 50 ms; fails with `what` after `ms`. For what a test cannot await
 * directly: a write the server makes on its own time (a live document written), what another process or
 * browser sees, the API's answer after a screen's save.
 */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`Timed out waiting until ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
