import { useState } from 'preact/hooks';

/** Runs a write, keeping its error on screen and the button busy meanwhile. */
export function useAction(): { busy: boolean; error: string | null; run: (work: () => Promise<void>) => Promise<void> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
