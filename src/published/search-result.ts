/** One page found by a published site's search (src/published/search.ts), as the reader and its API show it. */
export interface SearchResult {
  spaceId: string;
  siteSpaceId: string;
  pageId: string;
  /** The page's path in its space. */
  path: string;
  title: string;
  url: string;
  /** Where the page is: its section and variant, when the site has more than one. */
  place: string;
  sections: Array<{ id: string; title: string; url: string; snippet: string }>;
}
