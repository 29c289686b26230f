import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelVersion } from '../../src/live/model.ts';
import { editorModelVersion } from '../../web/src/live/editor-model.ts';
import { modelVersionOf, type ModelSchema } from '../../web/src/live/model-version.ts';

/** The document model version a browser sends with its live socket, and the server compares (web/src/live/model-version.ts). */
describe('the live document model version', () => {
  const schema = (paragraphAttrs: Record<string, unknown>, marks: ModelSchema['marks'] = { bold: { spec: {} } }): ModelSchema => ({
    nodes: { doc: { spec: {} }, paragraph: { spec: { attrs: paragraphAttrs } }, text: { spec: {} } },
    marks,
  });

  it('is the same in the browser\'s editor and on the server', async () => {
    assert.match(editorModelVersion(), /^[0-9a-f]{8}$/);
    assert.equal(editorModelVersion(), await modelVersion());
  });

  it('changes with a node, a mark or an attribute, and not with the order they are declared in', () => {
    const base = modelVersionOf(schema({ id: {}, align: {} }));
    assert.equal(modelVersionOf(schema({ align: {}, id: {} })), base);
    assert.notEqual(modelVersionOf(schema({ id: {} })), base);
    assert.notEqual(modelVersionOf(schema({ id: {}, align: {} }, { bold: { spec: {} }, italic: { spec: {} } })), base);
    const more = schema({ id: {}, align: {} });
    more.nodes.hint = { spec: { attrs: { style: {} } } };
    assert.notEqual(modelVersionOf(more), base);
  });
});
