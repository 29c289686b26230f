import { api } from '../api/operations.ts';
import type { RevisionPage } from '../api/types.ts';
import { askForm } from '../editor/dialog.ts';
import { emojiOf } from '../spaces/home-screen.tsx';
import type { NewKind } from './new-page-menu.tsx';
import { emojiCode } from './page-properties.tsx';
import { documentsOf } from './tree-drop.ts';

/**
 * The tree's actions that ask a question first (a dialog, keyboard-usable), each one write through the
 * documented page operations of the change request: a group, a link page (to an address or to a page), a
 * page's emoji. Each answers what it created or changed, or null when the person cancelled.
 */

const WEB_ADDRESS = /^https?:\/\/[^\s]+$/i;

/** Creates a group or a link page at the top level of the change request's tree. */
export async function createFromMenu(spaceId: string, changeRequestId: string, kind: NewKind, pages: RevisionPage[]): Promise<{ id: string } | null> {
  if (kind === 'group') {
    const answer = await askForm('New group of pages', [{ name: 'title', label: 'Title of the group', required: true, hint: 'A group is a heading over the pages you put in it (drag them inside).' }], 'Create');
    if (!answer) return null;
    return api.createPage(spaceId, changeRequestId, { title: String(answer.title).trim(), type: 'group' });
  }
  if (kind === 'link-url') {
    const answer = await askForm(
      'New link to an address',
      [
        { name: 'title', label: 'Title of the link', required: true },
        { name: 'url', label: 'Address', kind: 'url', required: true, check: (value) => (WEB_ADDRESS.test(value.trim()) ? null : 'Give a web address that starts with https:// or http://.') },
      ],
      'Create',
    );
    if (!answer) return null;
    return api.createLinkPage(spaceId, changeRequestId, { title: String(answer.title).trim(), target: { kind: 'url', url: String(answer.url).trim() } });
  }
  const choices = documentsOf(pages).map(({ page, depth }) => ({ value: page.id, label: `${'— '.repeat(depth)}${page.title || 'Untitled'}` }));
  const answer = await askForm(
    'New link to a page',
    [
      { name: 'title', label: 'Title of the link', required: true },
      { name: 'page', label: 'Page it opens', kind: 'select', choices, required: true },
    ],
    'Create',
  );
  if (!answer || !answer.page) return null;
  return api.createLinkPage(spaceId, changeRequestId, { title: String(answer.title).trim(), target: { kind: 'page', page: String(answer.page) } });
}

/** Sets or removes a page's emoji or icon (any kind of page; a page shows one or the other, the icon first). */
export async function askEmoji(spaceId: string, changeRequestId: string, page: RevisionPage): Promise<boolean> {
  const answer = await askForm(
    `Emoji or icon of "${page.title || 'Untitled'}"`,
    [
      { name: 'emoji', label: 'Emoji', value: emojiOf(page.emoji), hint: 'One emoji, such as 🚀 (your system’s emoji picker: Win+. or Ctrl+⌘+Space); leave both empty to remove them.' },
      { name: 'icon', label: 'Or an icon', value: page.icon ?? '', hint: 'A name such as gear or book (GitBook’s icons); it replaces the emoji.', check: (value) => (/^[a-z0-9-]*$/.test(value.trim()) ? null : 'Lowercase letters, digits and dashes, such as gear.') },
    ],
    'Save',
  );
  if (!answer) return false;
  const icon = String(answer.icon ?? '').trim();
  const code = emojiCode(String(answer.emoji));
  if (icon) {
    if (icon === page.icon) return false;
    await api.updatePage(spaceId, changeRequestId, page.id, { icon });
    return true;
  }
  if ((code ?? undefined) === (page.emoji ?? undefined) && !page.icon) return false;
  await api.updatePage(spaceId, changeRequestId, page.id, code ? { emoji: code } : { emoji: null, icon: null });
  return true;
}

/**
 * Points a link page elsewhere: an address (checked as the new-link dialog checks it) or a page of the
 * change request, written with the page operation's `href` or `target`. Answers whether it changed.
 */
export async function askLinkTarget(spaceId: string, changeRequestId: string, page: RevisionPage, pages: RevisionPage[]): Promise<boolean> {
  const target = page.target as { kind?: string; url?: unknown; page?: unknown } | undefined;
  const currentUrl = target?.kind === 'url' && typeof target.url === 'string' ? target.url : (page.href ?? '');
  const currentPage = target?.kind === 'page' && typeof target.page === 'string' ? target.page : '';
  const choices = [
    { value: '', label: 'The address below' },
    ...documentsOf(pages).filter(({ page: entry }) => entry.id !== page.id).map(({ page: entry, depth }) => ({ value: entry.id, label: `${'— '.repeat(depth)}${entry.title || 'Untitled'}` })),
  ];
  const answer = await askForm(
    `Where "${page.title || 'Untitled'}" points`,
    [
      { name: 'page', label: 'Page it opens', kind: 'select', choices, value: currentPage },
      {
        name: 'url',
        label: 'Address',
        kind: 'url',
        value: currentPage ? '' : currentUrl,
        hint: 'Used when no page is chosen above.',
        check: (value) => (!value.trim() || WEB_ADDRESS.test(value.trim()) ? null : 'Give a web address that starts with https:// or http://.'),
      },
    ],
    'Save',
  );
  if (!answer) return false;
  const chosen = String(answer.page ?? '');
  const url = String(answer.url ?? '').trim();
  if (chosen) {
    if (chosen === currentPage) return false;
    await api.updatePage(spaceId, changeRequestId, page.id, { target: { kind: 'page', page: chosen } });
    return true;
  }
  if (!url) throw new Error('Choose a page or give an address for the link.');
  if (!WEB_ADDRESS.test(url)) throw new Error('Give a web address that starts with https:// or http://.');
  if (url === currentUrl && !currentPage) return false;
  await api.updatePage(spaceId, changeRequestId, page.id, { href: url });
  return true;
}
