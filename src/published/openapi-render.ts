/**
 * An API reference block as HTML, server-rendered and readable without JavaScript: method and path,
 * summary and description, badges (deprecated, `x-stability`), servers, authentication, parameters by
 * location, request body and responses per status and media type with expandable schemas and examples,
 * and code samples. Styles: the `.openapi-*` rules of assets/content.css.
 */
import { slugify } from '../content/markdown/slug.ts';
import { escapeAttribute, escapeHtml } from './render/index.ts';
import { curlSample, exampleText, javascriptSample, mediaExample, pythonSample, type RequestShape } from './openapi-samples.ts';
import { Budget, deref, isHidden, isObject, renderSchema, typeLabel, valueFacts, type Json, type SpecDocument } from './openapi-schema.ts';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The anchor of an operation: `get-pets-petid` (stable across versions, unique per method and path). */
export function operationAnchor(method: string, path: string): string {
  return slugify(`${method} ${path.replace(/[{}]/g, '')}`, method);
}

/** The anchor of a webhook: `webhook-newinvoice-post`. */
export function webhookAnchor(name: string, method: string): string {
  return slugify(`webhook ${name} ${method}`, 'webhook');
}

/** What an operation is called: its summary, else its operationId, else its method and path. */
export function operationTitle(operation: Json, method: string, path: string): string {
  return typeof operation.summary === 'string' ? operation.summary : typeof operation.operationId === 'string' ? operation.operationId : `${method.toUpperCase()} ${path}`;
}

/** The operation at `path` and `method`, with its path item's shared parameters; null when there is none. */
export function findOperation(spec: SpecDocument, path: string, method: string, where: 'paths' | 'webhooks' = 'paths'): { operation: Json; shared: unknown[] } | null {
  const paths = spec.doc[where];
  if (!isObject(paths)) return null;
  const item = deref(spec, paths[path]).value;
  const operation = item[method.toLowerCase()];
  if (!isObject(operation)) return null;
  return { operation, shared: Array.isArray(item.parameters) ? item.parameters : [] };
}

function badges(operation: Json): string {
  const out: string[] = [];
  if (operation.deprecated === true) out.push('<span class="openapi-badge openapi-deprecated">Deprecated</span>');
  const stability = operation['x-stability'];
  if (typeof stability === 'string') out.push(`<span class="openapi-badge openapi-stability openapi-stability-${escapeAttribute(slugify(stability, 'x'))}">${escapeHtml(stability)}</span>`);
  return out.join(' ');
}

function serverUrl(spec: SpecDocument, operation: Json): string {
  const servers = (Array.isArray(operation.servers) && operation.servers.length ? operation.servers : spec.doc.servers) as unknown[] | undefined;
  const first = Array.isArray(servers) ? deref(spec, servers[0]).value : {};
  let url = typeof first.url === 'string' ? first.url : '';
  if (isObject(first.variables)) {
    for (const [name, variable] of Object.entries(first.variables)) {
      if (isObject(variable) && variable.default !== undefined) url = url.replaceAll(`{${name}}`, String(variable.default));
    }
  }
  return url.replace(/\/+$/, '');
}

function renderServers(spec: SpecDocument, operation: Json): string {
  const servers = (Array.isArray(operation.servers) && operation.servers.length ? operation.servers : spec.doc.servers) as unknown[] | undefined;
  if (!Array.isArray(servers) || servers.length === 0) return '';
  const items = servers.map((raw) => {
    const server = deref(spec, raw).value;
    const description = typeof server.description === 'string' ? ` <span class="openapi-server-description">${escapeHtml(server.description)}</span>` : '';
    return `<li><code>${escapeHtml(String(server.url ?? ''))}</code>${description}</li>`;
  });
  return `<div class="openapi-servers"><h4>Servers</h4><ul>${items.join('')}</ul></div>`;
}

interface AuthHeader {
  name: string;
  value: string;
  query?: boolean;
}

function securityOf(spec: SpecDocument, operation: Json): { html: string; headers: AuthHeader[] } {
  const requirements = (operation.security ?? spec.doc.security) as unknown[] | undefined;
  const schemes = isObject(spec.doc.components) && isObject(spec.doc.components.securitySchemes) ? spec.doc.components.securitySchemes : {};
  if (!Array.isArray(requirements) || requirements.length === 0) return { html: '', headers: [] };
  const items: string[] = [];
  const headers: AuthHeader[] = [];
  for (const requirement of requirements) {
    if (!isObject(requirement)) continue;
    for (const [name, scopes] of Object.entries(requirement)) {
      const scheme = deref(spec, schemes[name]).value;
      let what: string;
      if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer') {
        what = `Bearer token in the <code>Authorization</code> header${typeof scheme.bearerFormat === 'string' ? ` (${escapeHtml(scheme.bearerFormat)})` : ''}`;
        headers.push({ name: 'Authorization', value: 'Bearer YOUR_SECRET_TOKEN' });
      } else if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic') {
        what = 'HTTP basic authentication (<code>Authorization: Basic …</code>)';
        headers.push({ name: 'Authorization', value: 'Basic base64(username:password)' });
      } else if (scheme.type === 'apiKey') {
        what = `API key in the ${escapeHtml(String(scheme.in ?? 'header'))} <code>${escapeHtml(String(scheme.name ?? ''))}</code>`;
        if (scheme.in === 'header') headers.push({ name: String(scheme.name), value: 'YOUR_API_KEY' });
      } else if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') {
        what = `OAuth 2.0${Array.isArray(scopes) && scopes.length ? `, scopes ${scopes.map((s) => `<code>${escapeHtml(String(s))}</code>`).join(', ')}` : ''}`;
        headers.push({ name: 'Authorization', value: 'Bearer YOUR_OAUTH2_TOKEN' });
      } else what = escapeHtml(String(scheme.type ?? 'unknown'));
      const description = typeof scheme.description === 'string' ? spec.markdown(scheme.description) : '';
      items.push(`<li><strong>${escapeHtml(name)}</strong>: ${what}${description}</li>`);
    }
  }
  if (!items.length) return { html: '', headers: [] };
  const unique = headers.filter((h, i) => headers.findIndex((o) => o.name === h.name) === i);
  return { html: `<div class="openapi-auth"><h4>Authorization</h4><ul>${items.join('')}</ul></div>`, headers: unique };
}

function parametersOf(spec: SpecDocument, shared: unknown[], operation: Json): Json[] {
  const byKey = new Map<string, Json>();
  for (const raw of [...shared, ...(Array.isArray(operation.parameters) ? operation.parameters : [])]) {
    const parameter = deref(spec, raw).value;
    if (typeof parameter.name !== 'string' || isHidden(parameter)) continue;
    byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byKey.values()];
}

const LOCATIONS: Array<[string, string]> = [['path', 'Path parameters'], ['query', 'Query parameters'], ['header', 'Header parameters'], ['cookie', 'Cookie parameters']];

function renderParameters(spec: SpecDocument, parameters: Json[]): string {
  const out: string[] = [];
  for (const [location, title] of LOCATIONS) {
    const list = parameters.filter((p) => p.in === location);
    if (!list.length) continue;
    out.push(`<div class="openapi-parameters openapi-parameters-${location}"><h4>${title}</h4><ul class="openapi-properties">`);
    for (const parameter of list) {
      const schema = deref(spec, parameter.schema).value;
      const required = parameter.required === true || location === 'path';
      out.push(`<li class="openapi-property"><div class="openapi-property-head"><code class="openapi-name">${escapeHtml(String(parameter.name))}</code> <span class="openapi-type">${escapeHtml(typeLabel(spec, parameter.schema ?? {}))}</span>${required ? ' <span class="openapi-required">required</span>' : ''}${parameter.deprecated === true ? ' <span class="openapi-badge openapi-deprecated">deprecated</span>' : ''}</div>`);
      if (typeof parameter.description === 'string') out.push(spec.markdown(parameter.description));
      const example = parameter.example ?? (isObject(parameter.examples) ? deref(spec, Object.values(parameter.examples)[0]).value.value : undefined);
      out.push(valueFacts(spec, schema, example), '</li>');
    }
    out.push('</ul></div>');
  }
  return out.join('');
}

function renderContent(spec: SpecDocument, content: unknown, mode: 'read' | 'write', budget: Budget): { html: string; example: unknown; contentType: string | null } {
  if (!isObject(content)) return { html: '', example: null, contentType: null };
  const out: string[] = [];
  let first: { example: unknown; contentType: string } | null = null;
  for (const [type, raw] of Object.entries(content)) {
    const media = deref(spec, raw).value;
    const example = mediaExample(spec, media, mode);
    first ??= { example, contentType: type };
    out.push(`<div class="openapi-media"><p class="openapi-media-type"><code>${escapeHtml(type)}</code></p>`);
    if (media.schema !== undefined) out.push(renderSchema(spec, media.schema, mode, budget));
    if (example !== null && example !== undefined) out.push(`<details class="openapi-example-block"><summary>Example</summary><pre><code>${escapeHtml(exampleText(example))}</code></pre></details>`);
    out.push('</div>');
  }
  return { html: out.join(''), example: first?.example ?? null, contentType: first?.contentType ?? null };
}

function renderResponses(spec: SpecDocument, operation: Json, budget: Budget): string {
  const responses = operation.responses;
  if (!isObject(responses)) return '';
  const out: string[] = ['<div class="openapi-responses"><h4>Responses</h4>'];
  let opened = false;
  for (const [status, raw] of Object.entries(responses)) {
    const response = deref(spec, raw).value;
    const success = /^2/.test(status);
    const open: boolean = success && !opened;
    opened ||= open;
    const kind = /^2/.test(status) ? 'success' : /^[45]/.test(status) ? 'error' : 'other';
    out.push(`<details class="openapi-response openapi-response-${kind}"${open ? ' open' : ''}><summary><span class="openapi-status">${escapeHtml(status)}</span> ${escapeHtml(typeof response.description === 'string' ? response.description.split('\n')[0] : '')}</summary>`);
    if (typeof response.description === 'string' && response.description.includes('\n')) out.push(spec.markdown(response.description));
    if (isObject(response.headers)) {
      const headers = Object.entries(response.headers).map(([name, h]) => {
        const header = deref(spec, h).value;
        return `<li><code class="openapi-name">${escapeHtml(name)}</code> <span class="openapi-type">${escapeHtml(typeLabel(spec, header.schema ?? {}))}</span>${typeof header.description === 'string' ? spec.markdown(header.description) : ''}</li>`;
      });
      out.push(`<div class="openapi-response-headers"><p>Headers</p><ul class="openapi-properties">${headers.join('')}</ul></div>`);
    }
    out.push(renderContent(spec, response.content, 'read', budget).html, '</details>');
  }
  out.push('</div>');
  return out.join('');
}

function codeSamples(anchor: string, operation: Json, shape: RequestShape): string {
  const given = (operation['x-codeSamples'] ?? operation['x-code-samples']) as unknown;
  const samples: Array<[string, string]> = Array.isArray(given)
    ? given.filter(isObject).map((s) => [String(s.label ?? s.lang ?? 'Sample'), String(s.source ?? '')])
    : [['cURL', curlSample(shape)], ['JavaScript', javascriptSample(shape)], ['Python', pythonSample(shape)]];
  if (!samples.length) return '';
  const name = `${anchor}-samples`;
  const out = ['<div class="openapi-samples"><h4>Code samples</h4><div class="tabs">'];
  samples.forEach(([label, source], i) => {
    out.push(`<input class="tab-input" type="radio" name="${escapeAttribute(name)}" id="${escapeAttribute(`${name}-${i}`)}"${i === 0 ? ' checked' : ''}><label class="tab-label" for="${escapeAttribute(`${name}-${i}`)}">${escapeHtml(label)}</label>`);
    out.push(`<div class="tab-panel"><pre class="openapi-sample"><code>${escapeHtml(source)}</code></pre></div>`);
  });
  out.push('</div></div>');
  return out.join('');
}

function sampleUrl(spec: SpecDocument, operation: Json, path: string, parameters: Json[]): string {
  let url = `${serverUrl(spec, operation)}${path}`;
  const query: string[] = [];
  for (const parameter of parameters) {
    const schema = deref(spec, parameter.schema).value;
    const value = parameter.example ?? schema.example ?? schema.default ?? (Array.isArray(schema.enum) ? schema.enum[0] : undefined);
    if (parameter.in === 'path') url = url.replaceAll(`{${String(parameter.name)}}`, value !== undefined ? encodeURIComponent(String(value)) : `{${String(parameter.name)}}`);
    if (parameter.in === 'query' && (parameter.required === true || value !== undefined)) query.push(`${encodeURIComponent(String(parameter.name))}=${encodeURIComponent(String(value ?? ''))}`);
  }
  return query.length ? `${url}?${query.join('&')}` : url;
}

/** One operation (or webhook) as a reference section with its anchor. */
export function renderOperation(spec: SpecDocument, method: string, path: string, found: { operation: Json; shared: unknown[] }, options: { webhook?: boolean } = {}): string {
  const { operation, shared } = found;
  if (isHidden(operation)) return '<!-- This operation is hidden from readers (x-internal / x-gitbook-ignore). -->';
  const anchor = options.webhook ? webhookAnchor(path, method) : operationAnchor(method, path);
  const budget = new Budget(1500);
  const parameters = parametersOf(spec, shared, operation);
  const security = options.webhook ? { html: '', headers: [] } : securityOf(spec, operation);
  const body = deref(spec, operation.requestBody).value;
  const requestBody = renderContent(spec, body.content, 'write', budget);
  const title = operationTitle(operation, method, path);
  const out = [
    `<section class="openapi-operation${operation.deprecated === true ? ' openapi-operation-deprecated' : ''}" id="${escapeAttribute(anchor)}">`,
    `<div class="openapi-operation-head"><h3 class="openapi-summary"><a class="openapi-anchor" href="#${escapeAttribute(anchor)}">${escapeHtml(title)}</a></h3> ${badges(operation)}</div>`,
    `<p class="openapi-endpoint"><span class="openapi-method openapi-method-${escapeAttribute(method.toLowerCase())}">${escapeHtml(method.toUpperCase())}</span> <code class="openapi-path">${escapeHtml(options.webhook ? path : `${serverUrl(spec, operation)}${path}`)}</code></p>`,
    typeof operation.description === 'string' ? `<div class="openapi-description">${spec.markdown(operation.description)}</div>` : '',
    options.webhook ? '' : renderServers(spec, operation),
    security.html,
    renderParameters(spec, parameters),
    requestBody.html ? `<div class="openapi-request-body"><h4>Request body${body.required === true ? ' <span class="openapi-required">required</span>' : ''}</h4>${typeof body.description === 'string' ? spec.markdown(body.description) : ''}${requestBody.html}</div>` : '',
    renderResponses(spec, operation, budget),
  ];
  if (!options.webhook) {
    const headers: Array<[string, string]> = security.headers.map((h) => [h.name, h.value]);
    for (const p of parameters) if (p.in === 'header' && p.required === true) headers.push([String(p.name), String(p.example ?? deref(spec, p.schema).value.example ?? 'text')]);
    if (requestBody.contentType) headers.push(['Content-Type', requestBody.contentType]);
    out.push(codeSamples(anchor, operation, { method, url: sampleUrl(spec, operation, path, parameters), headers, contentType: requestBody.contentType, body: requestBody.example }));
  }
  out.push('</section>');
  return out.join('\n');
}

/** Named schemas of the description (an `openapi-schemas` block), each expandable, with an example. */
export function renderSchemas(spec: SpecDocument, names: string[]): string {
  const schemas = isObject(spec.doc.components) && isObject(spec.doc.components.schemas) ? spec.doc.components.schemas : {};
  const budget = new Budget(3000);
  const out = ['<div class="openapi-schemas">'];
  for (const name of names) {
    const schema = schemas[name];
    if (!isObject(schema) || isHidden(schema)) {
      out.push(`<div class="openapi-missing" role="note">The schema ${escapeHtml(name)} is not in this API description.</div>`);
      continue;
    }
    const example = mediaExample(spec, { schema }, 'read');
    out.push(`<section class="openapi-schema" id="${escapeAttribute(slugify(`schema ${name}`, 'schema'))}"><details open><summary><h3 class="openapi-summary">${escapeHtml(name)}</h3></summary>`);
    out.push(renderSchema(spec, schema, 'read', budget));
    if (example !== null && example !== undefined) out.push(`<details class="openapi-example-block"><summary>Example</summary><pre><code>${escapeHtml(exampleText(example))}</code></pre></details>`);
    out.push('</details></section>');
  }
  out.push('</div>');
  return out.join('\n');
}
