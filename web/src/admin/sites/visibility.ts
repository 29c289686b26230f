import type { Visibility } from './types.ts';

export const VISIBILITIES: Array<{ value: Visibility; label: string; sentence: string }> = [
  { value: 'public', label: 'Public', sentence: 'Anyone can read it, and search engines index it.' },
  { value: 'unlisted', label: 'Unlisted', sentence: 'Anyone with its address can read it, but search engines are asked not to index it.' },
  { value: 'share-link', label: 'Share links', sentence: 'Only people who open one of its share links can read it; revoking a link shuts it at once.' },
  { value: 'visitor-auth', label: 'Visitor authentication', sentence: 'Readers sign in through your own product, which sends them with a token signed by the site\'s key.' },
];
