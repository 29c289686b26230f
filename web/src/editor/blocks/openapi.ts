import type { DocumentBlockOpenAPIOperation, DocumentBlockOpenAPISchemas, DocumentBlockOpenAPIWebhook, DocumentBlockSwagger } from '../../../../src/content/markdown/types.ts';
import type { FormField } from '../dialog.ts';
import type { PlaceData } from '../place.ts';
import { line, voidBlockSpec } from './void-block.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'].map((method) => ({ label: method.toUpperCase(), value: method }));

function specField(spec: string, data: PlaceData | null): FormField {
  return { name: 'spec', label: 'OpenAPI specification', kind: 'select', required: true, value: spec, choices: async () => (data ? await data.specs() : spec ? [{ label: spec, value: spec }] : []) };
}

/** `openapi-operation`: one operation of a specification of the space's organization, picked from its latest version. */
export const openapiOperation = voidBlockSpec<DocumentBlockOpenAPIOperation>({
  type: 'openapi-operation',
  node: 'openapiOperation',
  title: 'OpenAPI operation',
  keywords: 'api endpoint swagger rest',
  blank: () => ({ object: 'block', type: 'openapi-operation', data: { ref: { kind: 'openapi', spec: '' }, path: '', method: '' }, isVoid: true }),
  fields: (block, data) => [
    specField(block.data.ref.spec, data),
    {
      name: 'operation',
      label: 'Operation',
      kind: 'select',
      required: true,
      value: block.data.path ? `${block.data.method} ${block.data.path}` : '',
      choices: async (values) => (data && values.spec ? await data.operations(String(values.spec)) : block.data.path ? [{ label: `${block.data.method.toUpperCase()} ${block.data.path}`, value: `${block.data.method} ${block.data.path}` }] : []),
    },
  ],
  apply(block, values) {
    const [method, ...path] = String(values.operation ?? '').split(' ');
    if (!values.spec || !method || !path.length) return block;
    return { ...block, data: { ref: { kind: 'openapi', spec: String(values.spec) }, method, path: path.join(' ') } };
  },
  describe: (block, dom) => line(dom, block.data.path ? `${block.data.method.toUpperCase()} ${block.data.path} · ${block.data.ref.spec}` : 'No operation chosen yet'),
});

/** `openapi-schemas`: schemas of a specification, by name. */
export const openapiSchemas = voidBlockSpec<DocumentBlockOpenAPISchemas>({
  type: 'openapi-schemas',
  node: 'openapiSchemas',
  title: 'OpenAPI schemas',
  keywords: 'api models components',
  blank: () => ({ object: 'block', type: 'openapi-schemas', data: { ref: { kind: 'openapi', spec: '' }, schemas: [] }, isVoid: true }),
  fields: (block, data) => [specField(block.data.ref.spec, data), { name: 'schemas', label: 'Schemas (comma separated)', value: block.data.schemas.join(', '), required: true }, { name: 'grouped', label: 'Grouped', kind: 'checkbox', value: block.data.grouped === true }],
  apply(block, values) {
    const data: DocumentBlockOpenAPISchemas['data'] = { ref: { kind: 'openapi', spec: String(values.spec) }, schemas: String(values.schemas).split(',').map((name) => name.trim()).filter(Boolean) };
    if (values.grouped) data.grouped = true;
    else if (block.data.grouped === false) data.grouped = false;
    return { ...block, data };
  },
  describe: (block, dom) => line(dom, `${block.data.schemas.join(', ') || 'No schema chosen yet'} · ${block.data.ref.spec}`),
});

/** `openapi-webhook`: a webhook of a specification, by name and method. */
export const openapiWebhook = voidBlockSpec<DocumentBlockOpenAPIWebhook>({
  type: 'openapi-webhook',
  node: 'openapiWebhook',
  title: 'OpenAPI webhook',
  keywords: 'api event callback',
  blank: () => ({ object: 'block', type: 'openapi-webhook', data: { ref: { kind: 'openapi', spec: '' }, name: '', method: 'post' }, isVoid: true }),
  fields: (block, data) => [specField(block.data.ref.spec, data), { name: 'name', label: 'Webhook', value: block.data.name, required: true }, { name: 'method', label: 'Method', kind: 'select', value: block.data.method, choices: METHODS }],
  apply: (block, values) => ({ ...block, data: { ref: { kind: 'openapi', spec: String(values.spec) }, name: String(values.name), method: String(values.method) } }),
  describe: (block, dom) => line(dom, `${block.data.method.toUpperCase()} ${block.data.name} · ${block.data.ref.spec}`),
});

/** `swagger` (`{% openapi src path method %}`): an operation of a description given by address or file. */
export const swagger = voidBlockSpec<DocumentBlockSwagger>({
  type: 'swagger',
  node: 'swagger',
  title: 'OpenAPI operation (by address)',
  keywords: 'api swagger url endpoint',
  blank: () => ({ object: 'block', type: 'swagger', data: { ref: { kind: 'url', url: '' }, path: '', method: 'get' }, isVoid: true }),
  fields: (block) => [
    ...(block.data.ref.kind === 'url' ? [{ name: 'url', label: 'Address of the description', kind: 'url' as const, value: block.data.ref.url, required: true }] : []),
    { name: 'path', label: 'Path', value: block.data.path, required: true },
    { name: 'method', label: 'Method', kind: 'select', value: block.data.method, choices: METHODS },
  ],
  apply(block, values) {
    const ref = block.data.ref.kind === 'url' ? { kind: 'url' as const, url: String(values.url).trim() } : block.data.ref;
    return { ...block, data: { ...block.data, ref, path: String(values.path).trim(), method: String(values.method) } };
  },
  describe: (block, dom) => line(dom, `${block.data.method.toUpperCase()} ${block.data.path} · ${block.data.ref.kind === 'url' ? block.data.ref.url : `file ${block.data.ref.file}`}`),
});
