import { getSchema } from '@tiptap/core';
import { schemaExtensions } from '../editor/schema.ts';
import { modelVersionOf } from './model-version.ts';

let version: string | undefined;

/** This browser's document model version (web/src/live/model-version.ts), from the editor's schema; computed once. */
export function editorModelVersion(): string {
  version ??= modelVersionOf(getSchema(schemaExtensions()) as never);
  return version;
}
