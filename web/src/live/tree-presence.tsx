import { useEffect, useRef, useState } from 'preact/hooks';
import { useSession } from '../account/session.ts';
import type { Person } from './live-document.ts';
import { openChangeRequestPresence } from './open.ts';

/**
 * The people of a change request by the page they have open, kept up to date from its presence channel
 * (web/src/live/presence-channel.ts); this browser says which page it has open (`pageId`). Not while the
 * change request is merged (nobody edits it) or when `enabled` is false. `onTreeChanged` is called when the
 * server says the change request's tree changed (or the channel joined again after a drop).
 */
export function useChangeRequestPresence(organizationId: string, spaceId: string, changeRequestId: string, pageId: string | undefined, enabled: boolean, onTreeChanged?: () => void): Map<string, Person[]> {
  const session = useSession();
  const [channel, setChannel] = useState<ReturnType<typeof openChangeRequestPresence>>(null);
  const [people, setPeople] = useState<Map<string, Person[]>>(new Map());
  // The latest callback, read when the message comes (the channel is not opened again for a new one).
  const treeChanged = useRef(onTreeChanged);
  treeChanged.current = onTreeChanged;
  useEffect(() => {
    if (!enabled) return;
    const opened = openChangeRequestPresence(organizationId, spaceId, changeRequestId, session.user);
    setChannel(opened);
    const unsubscribe = opened?.subscribe(() => setPeople(opened.byPage()));
    const unfollow = opened?.onTreeChanged(() => treeChanged.current?.());
    return () => {
      unsubscribe?.();
      unfollow?.();
      opened?.destroy();
      setChannel(null);
      setPeople(new Map());
    };
  }, [organizationId, spaceId, changeRequestId, enabled]);
  useEffect(() => channel?.setPage(pageId ?? null), [channel, pageId]);
  return people;
}
