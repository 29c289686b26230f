import * as Y from 'yjs';

/** Hocuspocus's outer message type of a Yjs sync message, and y-protocols' sync message type of an update. */
const MESSAGE_SYNC = 0;
const SYNC_UPDATE = 2;

/** Reads one unsigned variable-length integer (lib0's encoding: seven bits a byte, low bits first). */
function readVarUint(bytes: Uint8Array, at: { offset: number }): number | null {
  let value = 0;
  let multiplier = 1;
  while (at.offset < bytes.length) {
    const byte = bytes[at.offset++]!;
    value += (byte & 0x7f) * multiplier;
    if (byte < 0x80) return value;
    multiplier *= 128;
    if (multiplier > 2 ** 53) return null;
  }
  return null;
}

/**
 * The Yjs update a Hocuspocus message carries when it is a sync message of the "update" kind (the server's
 * broadcast of an edit: document name, 0, 2, the update), else null (sync steps, awareness, acknowledgements…).
 */
export function updateOfMessage(data: ArrayBuffer | Uint8Array): Uint8Array | null {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const at = { offset: 0 };
  const nameLength = readVarUint(bytes, at);
  if (nameLength === null) return null;
  at.offset += nameLength;
  if (readVarUint(bytes, at) !== MESSAGE_SYNC || readVarUint(bytes, at) !== SYNC_UPDATE) return null;
  const length = readVarUint(bytes, at);
  if (length === null || at.offset + length > bytes.length) return null;
  return bytes.subarray(at.offset, at.offset + length);
}

/**
 * Whether applying `update` to `doc` would change nothing: every item it holds is already integrated (each
 * client's items below the clock the document has reached) and it deletes nothing. The server sends each edit
 * to every connection, the one it came from included: that echo of this browser's own edit is such an update.
 * Conservative: an update that deletes, holds a skipped range, or meets a document waiting for missing items is
 * never called known, and is applied as always (Yjs would ignore what it already has).
 */
export function isKnownUpdate(update: Uint8Array, doc: Y.Doc): boolean {
  if (doc.store.pendingStructs !== null || doc.store.pendingDs !== null) return false;
  let decoded: ReturnType<typeof Y.decodeUpdate>;
  try {
    decoded = Y.decodeUpdate(update);
  } catch {
    return false;
  }
  if (decoded.ds.clients.size > 0 || decoded.structs.length === 0) return false;
  for (const struct of decoded.structs) {
    if (struct instanceof Y.Skip) return false;
    if (struct.id.clock + struct.length > Y.getState(doc.store, struct.id.client)) return false;
  }
  return true;
}
