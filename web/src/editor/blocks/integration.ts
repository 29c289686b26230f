import type { DocumentBlockIntegration, JsonValue } from '../../../../src/content/markdown/types.ts';
import { voidBlockSpec } from './void-block.ts';

function propsProblem(value: string): string | null {
  try {
    const parsed: unknown = JSON.parse(value || '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? null : 'The properties are a JSON object';
  } catch (error) {
    return `Not JSON: ${(error as Error).message}`;
  }
}

/** `integration` (a block of an integration, by its name and block, with its properties as JSON). */
export const integration = voidBlockSpec<DocumentBlockIntegration>({
  type: 'integration',
  node: 'integration',
  title: 'Integration block',
  keywords: 'app plugin',
  blank: () => ({ object: 'block', type: 'integration', data: { integration: '', block: '', props: {} }, isVoid: true }),
  fields: (block) => [
    { name: 'integration', label: 'Integration', value: block.data.integration, required: true },
    { name: 'block', label: 'Block', value: block.data.block, required: true },
    { name: 'url', label: 'Address', kind: 'url', value: block.data.url ?? '' },
    { name: 'props', label: 'Properties (JSON)', kind: 'textarea', value: JSON.stringify(block.data.props, null, 2), check: propsProblem },
  ],
  apply(block, values) {
    const data: DocumentBlockIntegration['data'] = { ...block.data, integration: String(values.integration), block: String(values.block), props: JSON.parse(String(values.props) || '{}') as Record<string, JsonValue> };
    if (values.url) data.url = String(values.url);
    else delete data.url;
    return { ...block, data };
  },
  describe(block, dom) {
    const text = document.createElement('p');
    text.textContent = `${block.data.integration} · ${block.data.block}`;
    dom.append(text);
  },
});
