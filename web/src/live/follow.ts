import type { LiveDocument } from './live-document.ts';

/** Keys that move the view or the caret: pressing one stops following, as typing does. */
const SCROLL_KEYS = new Set(['PageUp', 'PageDown', 'Home', 'End', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', ' ']);

/**
 * Following a person's cursor: while `live.following` names someone, every change of the page's people (their
 * caret moved, they typed) scrolls the view to their caret, the element the caret plugin draws with their
 * client id (web/src/live/collaboration.ts). Typing, a key that scrolls, the wheel or a touch move here
 * stops following. Returns the function that stops watching.
 */
export function followCarets(live: LiveDocument, root: HTMLElement): () => void {
  let frame = 0;
  const scroll = () => {
    frame = 0;
    if (live.following === null) return;
    if (!live.people().some((person) => person.clientId === live.following)) {
      // They left the page: nothing to follow.
      live.follow(null);
      return;
    }
    const caret = root.querySelector<HTMLElement>(`.live-caret[data-client="${live.following}"]`);
    if (!caret) return;
    const box = caret.getBoundingClientRect();
    const margin = 80;
    if (box.top < margin || box.bottom > window.innerHeight - margin) caret.scrollIntoView({ block: 'center' });
  };
  // After the caret plugin has drawn the new position (it draws on the same awareness change).
  const schedule = () => {
    if (live.following !== null && !frame) frame = requestAnimationFrame(scroll);
  };
  const stop = () => live.follow(null);
  const onKey = (event: KeyboardEvent) => {
    if (live.following === null) return;
    // The avatars' own keys (Enter or Space on a "follow" button) are not typing.
    if (event.target instanceof Element && event.target.closest('.live-people')) return;
    if (event.key.length === 1 || SCROLL_KEYS.has(event.key) || event.key === 'Backspace' || event.key === 'Delete' || event.key === 'Enter') stop();
  };
  const onPointerScroll = () => {
    if (live.following !== null) stop();
  };
  const unsubscribe = live.subscribe(schedule);
  window.addEventListener('keydown', onKey, true);
  window.addEventListener('wheel', onPointerScroll, { passive: true });
  window.addEventListener('touchmove', onPointerScroll, { passive: true });
  return () => {
    unsubscribe();
    if (frame) cancelAnimationFrame(frame);
    window.removeEventListener('keydown', onKey, true);
    window.removeEventListener('wheel', onPointerScroll);
    window.removeEventListener('touchmove', onPointerScroll);
  };
}
