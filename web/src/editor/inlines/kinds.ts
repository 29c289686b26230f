import type { ContentRef, DocumentInline, DocumentInlineAnnotation, DocumentInlineButton, DocumentInlineEmoji, DocumentInlineExpression, DocumentInlineIcon, DocumentInlineImage, DocumentInlineMath, DocumentInlineMention } from '../../../../src/content/markdown/types.ts';
import { fragment, paragraph, textNode } from '../../../../src/content/markdown/nodes.ts';
import { conditionProblem } from '../blocks/if.ts';
import type { FormField, FormValues } from '../dialog.ts';
import type { PlaceData } from '../place.ts';
import { plainText } from '../plain-text.ts';
import { renderTex } from '../tex.ts';
import { emojiFromInput, emojiOfCode } from './emoji.ts';

/**
 * The inlines of the document model the editor writes as one piece (emoji, mentions, formulas, buttons,
 * icons, expressions, inline images, annotations): each kind's dialog fields, how its answers make the
 * inline, and how it is drawn in the text.
 */
export interface InlineKind<I extends DocumentInline = DocumentInline> {
  type: I['type'];
  title: string;
  keywords: string;
  blank(): I;
  fields(inline: I, data: PlaceData | null): FormField[];
  /** The inline from the dialog's answers; null when they make none (an unknown emoji name). */
  apply(inline: I, values: FormValues): Promise<I | null> | I | null;
  draw(inline: I, dom: HTMLElement, data: PlaceData | null): void;
}

function refField(ref: ContentRef, data: PlaceData | null): FormField[] {
  return [
    { name: 'page', label: 'Page', kind: 'select', value: ref.kind === 'page' ? ref.page : '', choices: async () => [{ label: '(an address instead)', value: '' }, ...(data ? await data.pages() : [])] },
    { name: 'url', label: 'Or an address', kind: 'url', value: ref.kind === 'url' ? ref.url : '' },
  ];
}

function refOf(values: FormValues, before: ContentRef): ContentRef {
  if (values.page) return { kind: 'page', page: String(values.page) };
  if (String(values.url ?? '').trim()) return { kind: 'url', url: String(values.url).trim() };
  return before;
}

const emoji: InlineKind<DocumentInlineEmoji> = {
  type: 'emoji',
  title: 'Emoji',
  keywords: 'smiley icon reaction',
  blank: () => ({ object: 'inline', type: 'emoji', data: { code: '' }, isVoid: true }),
  fields: (inline) => [{ name: 'emoji', label: 'Emoji (the character or its :name:)', value: inline.data.code ? emojiOfCode(inline.data.code) : '', required: true }],
  apply: async (inline, values) => {
    const code = await emojiFromInput(String(values.emoji));
    return code ? { ...inline, data: { code } } : null;
  },
  draw: (inline, dom) => {
    dom.textContent = emojiOfCode(inline.data.code);
    dom.setAttribute('role', 'img');
    dom.setAttribute('aria-label', `emoji ${inline.data.code}`);
  },
};

const mention: InlineKind<DocumentInlineMention> = {
  type: 'mention',
  title: 'Mention',
  keywords: 'person user people at @',
  blank: () => ({ object: 'inline', type: 'mention', data: { ref: { kind: 'user', user: '' } }, isVoid: true }),
  fields: (inline, data) => [
    { name: 'user', label: 'Person', kind: 'select', value: inline.data.ref.kind === 'user' ? inline.data.ref.user : '', choices: async () => [{ label: '(a page instead)', value: '' }, ...(data ? await data.members() : [])] },
    { name: 'page', label: 'Or a page', kind: 'select', value: inline.data.ref.kind === 'page' ? inline.data.ref.page : '', choices: async () => [{ label: '(none)', value: '' }, ...(data ? await data.pages() : [])] },
  ],
  apply: (inline, values) => {
    if (values.user) return { ...inline, data: { ref: { kind: 'user', user: String(values.user) } } };
    if (values.page) return { ...inline, data: { ref: { kind: 'page', page: String(values.page) } } };
    return null;
  },
  draw: (inline, dom, data) => {
    const { ref } = inline.data;
    dom.textContent = `@${ref.kind === 'user' ? ref.user : ref.kind === 'page' ? ref.page : ref.kind}`;
    const list = ref.kind === 'user' ? data?.members() : ref.kind === 'page' ? data?.pages() : undefined;
    const id = ref.kind === 'user' ? ref.user : ref.kind === 'page' ? ref.page : '';
    void list?.then((choices) => {
      const found = choices.find((choice) => choice.value === id);
      if (found) dom.textContent = `@${found.label.trim()}`;
    }, () => undefined);
  },
};

const inlineMath: InlineKind<DocumentInlineMath> = {
  type: 'inline-math',
  title: 'Inline math',
  keywords: 'formula tex katex equation',
  blank: () => ({ object: 'inline', type: 'inline-math', data: { formula: '' }, isVoid: true }),
  fields: (inline) => [{ name: 'formula', label: 'TeX formula', value: inline.data.formula, required: true }],
  apply: (inline, values) => (String(values.formula).trim() ? { ...inline, data: { formula: String(values.formula) } } : null),
  draw: (inline, dom) => {
    dom.setAttribute('aria-label', inline.data.formula);
    renderTex(dom, inline.data.formula, false);
  },
};

const button: InlineKind<DocumentInlineButton> = {
  type: 'button',
  title: 'Button',
  keywords: 'call to action link cta',
  blank: () => ({ object: 'inline', type: 'button', data: { ref: { kind: 'url', url: '' }, label: '', kind: 'primary' }, isVoid: true }),
  fields: (inline, data) => [
    { name: 'label', label: 'Button text', value: inline.data.label, required: true },
    ...refField(inline.data.ref, data),
    { name: 'kind', label: 'Style', kind: 'select', value: inline.data.kind, choices: [{ label: 'Primary', value: 'primary' }, { label: 'Secondary', value: 'secondary' }] },
    { name: 'icon', label: 'Icon', value: inline.data.icon ?? '' },
  ],
  apply: (inline, values) => {
    const data: DocumentInlineButton['data'] = { ...inline.data, label: String(values.label).trim(), ref: refOf(values, inline.data.ref), kind: values.kind === 'secondary' ? 'secondary' : 'primary' };
    if (values.icon) data.icon = String(values.icon);
    else delete data.icon;
    return data.label ? { ...inline, data } : null;
  },
  draw: (inline, dom) => {
    dom.textContent = inline.data.label;
    dom.classList.add(`inline-button-${inline.data.kind}`);
  },
};

const icon: InlineKind<DocumentInlineIcon> = {
  type: 'icon',
  title: 'Icon',
  keywords: 'font awesome symbol',
  blank: () => ({ object: 'inline', type: 'icon', data: { icon: '' }, isVoid: true }),
  fields: (inline) => [{ name: 'icon', label: 'Icon name (Font Awesome, such as book)', value: inline.data.icon, required: true, check: (value) => (/^[a-z0-9-]*$/.test(value) ? null : 'Lower-case letters, digits and dashes') }],
  apply: (inline, values) => (values.icon ? { ...inline, data: { icon: String(values.icon) } } : null),
  draw: (inline, dom) => (dom.textContent = `[${inline.data.icon}]`),
};

const expression: InlineKind<DocumentInlineExpression> = {
  type: 'expression',
  title: 'Expression',
  keywords: 'variable value',
  blank: () => ({ object: 'inline', type: 'expression', data: { expression: '' }, isVoid: true }),
  fields: (inline) => [{ name: 'expression', label: 'Expression', value: inline.data.expression, required: true, check: conditionProblem, hint: 'Reads space.vars, page.vars and visitor.claims.' }],
  apply: (inline, values) => ({ ...inline, data: { expression: String(values.expression) } }),
  draw: (inline, dom) => (dom.textContent = `{${inline.data.expression}}`),
};

const inlineImage: InlineKind<DocumentInlineImage> = {
  type: 'inline-image',
  title: 'Inline image',
  keywords: 'picture icon img',
  blank: () => ({ object: 'inline', type: 'inline-image', data: { ref: { kind: 'url', url: '' } }, isVoid: true }),
  fields: (inline, data) => [
    { name: 'file', label: 'File of the space', kind: 'select', value: inline.data.ref.kind === 'file' ? inline.data.ref.file : '', choices: async () => [{ label: '(an address instead)', value: '' }, ...(data ? (await data.files()).filter((file) => file.contentType.startsWith('image/')).map((file) => ({ label: file.name, value: file.id })) : [])] },
    { name: 'url', label: 'Or an address', kind: 'url', value: inline.data.ref.kind === 'url' ? inline.data.ref.url : '' },
    { name: 'caption', label: 'Description', value: inline.data.caption ?? '' },
    { name: 'size', label: 'Size', kind: 'select', value: inline.data.size ?? 'original', choices: [{ label: 'Original', value: 'original' }, { label: 'Line height', value: 'line' }] },
  ],
  apply: (inline, values) => {
    const ref = values.file ? { kind: 'file' as const, file: String(values.file) } : String(values.url ?? '').trim() ? { kind: 'url' as const, url: String(values.url).trim() } : inline.data.ref;
    if (ref.kind === 'url' && !ref.url) return null;
    const data: DocumentInlineImage['data'] = { ...inline.data, ref };
    if (values.caption) data.caption = String(values.caption);
    else delete data.caption;
    if (values.size === 'line' || inline.data.size) data.size = values.size === 'line' ? 'line' : 'original';
    return { ...inline, data };
  },
  draw: (inline, dom, data) => {
    const img = document.createElement('img');
    img.alt = inline.data.caption ?? '';
    img.className = `inline-image size-${inline.data.size ?? 'original'}`;
    const { ref } = inline.data;
    if (ref.kind === 'url') img.src = ref.url;
    else void data?.files().then((files) => {
      const found = files.find((file) => file.id === ref.file);
      if (found) img.src = found.downloadURL;
    }, () => undefined);
    dom.append(img);
  },
};

const annotation: InlineKind<DocumentInlineAnnotation> = {
  type: 'annotation',
  title: 'Annotation',
  keywords: 'footnote note comment',
  blank: () => ({ object: 'inline', type: 'annotation', data: {}, nodes: [textNode('')], fragments: [], isVoid: false }),
  fields: (inline) => [
    { name: 'text', label: 'Annotated text', value: plainText(inline.nodes), required: true },
    { name: 'note', label: 'Note', kind: 'textarea', value: plainText(inline.fragments.flatMap((item) => item.nodes)), required: true },
  ],
  apply: (inline, values) => {
    const text = String(values.text);
    const note = String(values.note);
    if (!text.trim() || !note.trim()) return null;
    // Text or a note left as it was keeps its marks.
    const nodes = text === plainText(inline.nodes) ? inline.nodes : [textNode(text)];
    const fragments = note === plainText(inline.fragments.flatMap((item) => item.nodes)) ? inline.fragments : [fragment('annotation-body', note.split(/\n+/).map((line) => paragraph([textNode(line)])), 'annotation-body')];
    return { ...inline, nodes, fragments };
  },
  draw: (inline, dom) => {
    dom.textContent = plainText(inline.nodes);
    dom.title = plainText(inline.fragments.flatMap((item) => item.nodes));
  },
};

export const INLINE_KINDS: InlineKind[] = [emoji, mention, inlineMath, button, icon, expression, inlineImage, annotation] as unknown as InlineKind[];
export const INLINE_KIND = new Map(INLINE_KINDS.map((kind) => [kind.type, kind]));
