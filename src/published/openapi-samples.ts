/**
 * Examples and code samples of an operation. Examples come from the description (`example`, `examples`)
 * or are generated from the schema by openapi-sampler; code samples (curl, JavaScript, Python) are built
 * from the operation's first server, path, query and header parameters and example body, unless the
 * description gives its own (`x-codeSamples`, `x-code-samples`).
 */
import { sample } from 'openapi-sampler';
import { deref, isObject, type Json, type SpecDocument } from './openapi-schema.ts';

const MAX_EXAMPLE_LENGTH = 20_000;

/** The example of a media type object: given, else generated; null when none can be made. */
export function mediaExample(spec: SpecDocument, media: Json, mode: 'read' | 'write'): unknown {
  if (media.example !== undefined) return media.example;
  if (isObject(media.examples)) {
    const first = Object.values(media.examples)[0];
    const { value } = deref(spec, first);
    if (value.value !== undefined) return value.value;
  }
  if (media.schema === undefined) return null;
  try {
    const generated = sample(media.schema as never, { skipReadOnly: mode === 'write', skipWriteOnly: mode === 'read', quiet: true, maxSampleDepth: 8 }, spec.doc);
    return JSON.stringify(generated ?? null).length > MAX_EXAMPLE_LENGTH ? null : generated;
  } catch {
    // A schema the sampler cannot follow (an unusual combination): the reference shows no generated example.
    return null;
  }
}

export function exampleText(example: unknown): string {
  return typeof example === 'string' ? example : JSON.stringify(example, null, 2);
}

export interface RequestShape {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  contentType: string | null;
  body: unknown;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const jsString = (text: string) => JSON.stringify(text);
const pyString = (text: string) => JSON.stringify(text);

export function curlSample(r: RequestShape): string {
  const lines = [`curl -L \\`, `  --request ${r.method.toUpperCase()} \\`, `  --url ${shellQuote(r.url)}`];
  for (const [name, value] of r.headers) lines[lines.length - 1] += ' \\', lines.push(`  --header ${shellQuote(`${name}: ${value}`)}`);
  if (r.body !== null && r.body !== undefined) {
    lines[lines.length - 1] += ' \\';
    lines.push(`  --data ${shellQuote(typeof r.body === 'string' ? r.body : JSON.stringify(r.body, null, 2))}`);
  }
  return lines.join('\n');
}

export function javascriptSample(r: RequestShape): string {
  const options: string[] = [`  method: ${jsString(r.method.toUpperCase())},`];
  if (r.headers.length) options.push(`  headers: {\n${r.headers.map(([n, v]) => `    ${jsString(n)}: ${jsString(v)},`).join('\n')}\n  },`);
  if (r.body !== null && r.body !== undefined) {
    const json = r.contentType?.includes('json') && typeof r.body !== 'string';
    options.push(`  body: ${json ? `JSON.stringify(${JSON.stringify(r.body, null, 2).replace(/\n/g, '\n  ')})` : jsString(String(r.body))},`);
  }
  return `const response = await fetch(${jsString(r.url)}, {\n${options.join('\n')}\n});\n\nconst data = await response.json();`;
}

export function pythonSample(r: RequestShape): string {
  const args = [pyString(r.url)];
  if (r.headers.length) args.push(`headers={${r.headers.map(([n, v]) => `${pyString(n)}: ${pyString(v)}`).join(', ')}}`);
  if (r.body !== null && r.body !== undefined) {
    const json = r.contentType?.includes('json') && typeof r.body !== 'string';
    const literal = JSON.stringify(r.body, null, 4).replace(/\btrue\b/g, 'True').replace(/\bfalse\b/g, 'False').replace(/\bnull\b/g, 'None');
    args.push(json ? `json=${literal}` : `data=${pyString(String(r.body))}`);
  }
  return `import requests\n\nresponse = requests.${r.method.toLowerCase()}(\n    ${args.join(',\n    ')}\n)\n\ndata = response.json()`;
}
