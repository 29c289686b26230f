/**
 * Inlines GitBook writes as HTML (the reverse of parse-inline-html.ts): buttons, icons, mentions,
 * expressions and emoji.
 */
import type { PhrasingContent } from 'mdast';
import { escapeAttribute, writeStartTag } from './html.ts';
import { emojiText } from './nodes.ts';
import type { RenderContext } from './render-context.ts';
import { refHref } from './refs.ts';
import type { DocumentInlineButton, DocumentInlineEmoji, DocumentInlineExpression, DocumentInlineIcon, DocumentInlineMention } from './types.ts';

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function raw(value: string): PhrasingContent {
  return { type: 'html', value };
}

export function inlineHtml(piece: DocumentInlineButton | DocumentInlineIcon | DocumentInlineMention | DocumentInlineExpression | DocumentInlineEmoji, ctx: RenderContext): PhrasingContent[] {
  switch (piece.type) {
    case 'button': {
      const { label, kind, icon, action } = piece.data;
      if (action) {
        const tag = writeStartTag('button', [['type', 'button'], ['class', `button ${kind}`], ['data-action', action.action], ['data-query', action.query], ['data-icon', icon]]);
        return [raw(`${tag}${escapeText(label)}</button>`)];
      }
      const href = refHref(piece.data.ref, ctx.options);
      const tag = writeStartTag('a', [['href', href === '' ? undefined : href], ['class', `button ${kind}`], ['data-icon', icon]]);
      return [raw(`${tag}${escapeText(label)}</a>`)];
    }
    case 'icon':
      return [raw(`<i class="fa-${escapeAttribute(piece.data.icon)}">:${escapeText(piece.data.icon)}:</i>`)];
    case 'mention': {
      // `[page.md](page.md "mention")`: the text GitBook writes is the name of the target's file.
      const href = refHref(piece.data.ref, ctx.options);
      const title = ctx.options.refTitle?.(piece.data.ref) ?? (href.split('#')[0].replace(/\/$/, '').split('/').pop() || href);
      return [{ type: 'link', url: href, title: 'mention', children: [{ type: 'text', value: title }] }];
    }
    case 'expression':
      return [raw(`<code class="expression">${escapeText(piece.data.expression)}</code>`)];
    case 'emoji':
      return [raw(`<span data-gb-custom-inline data-tag="emoji" data-code="${escapeAttribute(piece.data.code)}">${emojiText(piece.data.code)}</span>`)];
  }
}
