import type { DocumentBlockEmbed } from '../../../../src/content/markdown/types.ts';
import { api } from '../../api/operations.ts';
import { captionOf, line, voidBlockSpec, withCaption } from './void-block.ts';

/** An address the reader can embed: http(s) only, as the server's document rules ask. */
export function embedUrlProblem(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'An embed is an http or https address';
  } catch {
    return 'Write the full address, such as https://www.youtube.com/watch?v=…';
  }
}

/** `embed` (an address shown embedded: a video, a sandbox; optional caption and full width). */
export const embed = voidBlockSpec<DocumentBlockEmbed>({
  type: 'embed',
  node: 'embed',
  title: 'Embed',
  keywords: 'video youtube iframe url link preview',
  blank: () => ({ object: 'block', type: 'embed', data: { url: '' }, isVoid: true }),
  fields: (block) => [
    { name: 'url', label: 'Address to embed', kind: 'url', value: block.data.url, required: true, check: embedUrlProblem },
    { name: 'caption', label: 'Caption', value: captionOf(block) },
    { name: 'fullWidth', label: 'Full width', kind: 'checkbox', value: block.data.fullWidth === true },
  ],
  apply(block, values) {
    const data: DocumentBlockEmbed['data'] = { url: String(values.url).trim() };
    if (values.fullWidth) data.fullWidth = true;
    else if (block.data.fullWidth === false) data.fullWidth = false;
    const fragments = withCaption(block.fragments, String(values.caption ?? ''));
    return { ...block, data, ...(fragments.length ? { fragments } : { fragments: undefined }) };
  },
  describe(block, dom, data) {
    line(dom, block.data.url || 'No address yet', block.data.url);
    const caption = captionOf(block);
    if (caption) line(dom, caption);
    if (!data || !block.data.url) return;
    // What the space makes of the address, through the same guard the API applies (private addresses refused).
    const check = document.createElement('button');
    check.type = 'button';
    check.className = 'void-check';
    check.textContent = 'Preview';
    const answer = document.createElement('p');
    answer.className = 'meta';
    answer.setAttribute('aria-live', 'polite');
    check.addEventListener('click', () => {
      answer.textContent = 'Asking the space…';
      api.embed(data.place.spaceId, block.data.url).then(
        (embed) => (answer.textContent = [embed.title, embed.site].filter(Boolean).join(' · ') || 'The address can be embedded.'),
        (error: Error) => (answer.textContent = error.message),
      );
    });
    dom.append(check, answer);
  },
});
