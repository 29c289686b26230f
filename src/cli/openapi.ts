import { readFile, stat } from 'node:fs/promises';
import type { Context } from '../context.ts';
import { BadRequest } from '../errors.ts';
import { MAX_DESCRIPTION_BYTES } from '../openapi/process.ts';
import { processNow, publishSpecAsOperator } from '../modules/openapi/operator.ts';

export interface OpenAPIPublishCommand {
  organizationId: string;
  slug: string;
  /** A local file, or an http(s) URL. */
  source: string;
  json: boolean;
}

/**
 * `quire openapi publish --org <id> --spec <slug> <file-or-url>`: creates or updates the spec, waits for
 * its processing and prints the state and any error. Exits 0 when the description was processed, 1 when
 * its processing failed (the error code and message are printed).
 */
export async function openAPIPublishCommand(ctx: Context, command: OpenAPIPublishCommand): Promise<number> {
  let source: { url: string } | { text: string };
  if (/^https?:\/\//i.test(command.source)) source = { url: command.source };
  else {
    const info = await stat(command.source).catch(() => null);
    if (!info?.isFile()) throw new BadRequest(`There is no file at ${command.source}; give an OpenAPI file (JSON or YAML) or an http(s) URL.`);
    if (info.size > MAX_DESCRIPTION_BYTES) throw new BadRequest(`${command.source} is larger than 20 MB, the most Quire reads for one description.`);
    source = { text: await readFile(command.source, 'utf8') };
  }
  const { spec, created } = await publishSpecAsOperator(ctx, command.organizationId, command.slug, source);
  const row = await processNow(ctx, spec.id);
  const result = {
    spec: row.slug,
    id: row.id,
    created,
    processingState: row.processing_state,
    lastVersion: row.last_version_id,
    lastProcessErrorCode: row.last_error_code,
    lastProcessError: row.last_error,
  };
  if (command.json) process.stdout.write(JSON.stringify(result) + '\n');
  else if (row.last_error_code) process.stdout.write(`${created ? 'Created' : 'Updated'} OpenAPI specification "${row.slug}"; processing failed with ${row.last_error_code}: ${row.last_error}\n`);
  else process.stdout.write(`${created ? 'Created' : 'Updated'} OpenAPI specification "${row.slug}": ${row.processing_state}, latest version ${row.last_version_id}.\n`);
  return row.last_error_code ? 1 : 0;
}
