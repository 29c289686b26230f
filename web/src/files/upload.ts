import { ApiError, currentCsrfToken } from '../api/client.ts';
import { operationPath, type RevisionFile } from '../api/operations.ts';

/** The largest file Quire takes (src/modules/uploads/sniff.ts), checked here first so a person knows at once. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/**
 * Sends one file to a change request (`uploadFileInChangeRequest`, Quire's addition): the bytes as the body,
 * the name in the query. XMLHttpRequest rather than fetch, because only it tells how much is sent. Settles
 * with the file as the change request now holds it, or an ApiError with the server's message (status 0 when
 * Quire could not be reached).
 */
export function sendFile(spaceId: string, changeRequestId: string, file: File, onProgress: (fraction: number) => void): { done: Promise<RevisionFile>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<RevisionFile>((resolve, reject) => {
    if (file.size > MAX_UPLOAD_BYTES) {
      reject(new ApiError(413, `"${file.name}" holds ${Math.round(file.size / 1024 / 1024)} MB; a file may hold at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`));
      return;
    }
    xhr.open('POST', `${operationPath('uploadFileInChangeRequest', { spaceId, changeRequestId })}?${new URLSearchParams({ name: nameOf(file) })}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    const token = currentCsrfToken();
    if (token) xhr.setRequestHeader('x-csrf-token', token);
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onerror = () => reject(new ApiError(0, 'Quire could not be reached. Check your connection, then try again.'));
    xhr.onabort = () => reject(new ApiError(0, 'The upload was stopped.'));
    xhr.onload = () => {
      const body = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as RevisionFile);
      else reject(new ApiError(xhr.status, messageOf(body) ?? `Quire answered ${xhr.status} ${xhr.statusText}.`));
    };
    xhr.send(file);
  });
  return { done, abort: () => xhr.abort() };
}

/** A pasted picture comes without a useful name ("image.png"): it gets one that says when. */
export function nameOf(file: File): string {
  if (file.name && file.name !== 'image.png') return file.name;
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  const extension = file.type.split('/')[1]?.replace('jpeg', 'jpg') ?? 'png';
  return `pasted-${stamp}.${extension}`;
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

function messageOf(body: unknown): string | undefined {
  const error = body && typeof body === 'object' && 'error' in body ? (body as { error: { message?: unknown } }).error : undefined;
  return error && typeof error.message === 'string' ? error.message : undefined;
}
