import { ApiError } from '../../api/client.ts';
import { sitesApi } from './sites-api.ts';
import type { CustomFont } from './types.ts';

/**
 * Uploads a font file as the public client does: generateStorageUploadURL for a signed address, the bytes
 * PUT there (the one call the browser sends as raw bytes; the server parses the font before keeping it),
 * then createCustomFont with the key, named after the family the file declares.
 */
export async function uploadFont(organizationId: string, file: File): Promise<CustomFont> {
  const signed = await sitesApi.uploadUrl(organizationId, file);
  let response: Response;
  try {
    // The signed address names Quire's public URL; the same path on the workspace's own origin keeps it same-origin.
    const target = new URL(signed.url);
    response = await fetch(`${target.pathname}${target.search}`, { method: 'PUT', body: file, headers: { 'content-type': file.type || 'application/octet-stream' }, credentials: 'omit' });
  } catch {
    throw new ApiError(0, 'Quire could not be reached while the font was uploaded. Check your connection and try again.');
  }
  const body = (await response.json().catch(() => ({}))) as { fontFamily?: string; error?: { message?: string } };
  if (!response.ok) throw new ApiError(response.status, body.error?.message ?? `The upload failed (${response.status}).`);
  return sitesApi.createFont(organizationId, body.fontFamily ?? file.name.replace(/\.[^.]+$/, ''), signed.key);
}
