/** The answers the sites screens read, as Quire's `/openapi.json` describes them (only the members used). */
export type Visibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';

export interface Site {
  id: string;
  title: string;
  visibility: Visibility;
  published: boolean;
  basename?: string;
  siteSpaces: number;
  defaultSpace: string | null;
  urls: { location: string; published?: string };
}

export interface SiteSpace {
  id: string;
  path: string;
  title: string;
  default: boolean;
  space: { id: string; title: string };
  urls: { published?: string };
  section?: string;
  condition?: string;
}

export interface ShareLink {
  id: string;
  name: string;
  active: boolean;
  createdAt: string;
  urls: { published?: string };
}

export type RedirectDestination = { kind: 'site-space'; siteSpaceId: string } | { kind: 'site-page'; siteSpaceId: string; pageId: string } | { kind: 'site-section'; siteSectionId: string };

export interface Redirect {
  id: string;
  source: string;
  destination: RedirectDestination;
}

export interface ThemedColor {
  light: string;
  dark: string;
}

export interface CustomFont {
  id: string;
  custom: true;
  fontFamily: string;
  fontFaces: Array<{ weight: number; sources: Array<{ url: string; format?: string }> }>;
}

export interface HeaderLink {
  title: string;
  to: { kind: 'url'; url: string };
}

/** The site's customization (complete, as GET answers it); the members the form edits are named. */
export interface Customization {
  title?: string;
  styling: { primaryColor: ThemedColor; font: string | CustomFont; theme: string; [key: string]: unknown };
  favicon: { icon?: ThemedColor; emoji?: string; [key: string]: unknown };
  header: { logo?: ThemedColor; links: HeaderLink[]; [key: string]: unknown };
  footer: { copyright?: string; groups: unknown[]; [key: string]: unknown };
  themes: { default: 'light' | 'dark'; toggeable: boolean };
  feedback: { enabled: boolean };
  pageActions: { externalAI: boolean; markdown: boolean };
  hasOverrides?: boolean;
  [key: string]: unknown;
}

export interface List<T> {
  items: T[];
  next?: { page: string };
}

export interface PublishingAuth {
  backend: 'custom';
  privateKey: string;
  fallbackURL?: string;
}

/** The adaptive content schema: a JSON Schema of the visitor's claims. */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, { type?: string; description?: string; enum?: unknown[] }>;
  [key: string]: unknown;
}

export interface SiteSection {
  id: string;
  title: string;
  path: string;
  default: boolean;
  siteSpaces: SiteSpace[];
  sectionGroup?: string;
  condition?: string;
}

export interface SectionGroup {
  object: 'site-section-group';
  id: string;
  title: string;
  sections: SiteSection[];
}

export type SiteStructure =
  | { type: 'sections'; structure: Array<(SiteSection & { object: 'site-section' }) | SectionGroup> }
  | { type: 'siteSpaces'; structure: SiteSpace[] };

export interface StructurePointer {
  type: 'site-space' | 'site-section' | 'site-section-group';
  id: string;
}

/** What getPublishedContentSite answers a visitor (the members the claims tryout reads). */
export interface PublishedSite {
  structure: SiteStructure;
}

export interface McpServer {
  id: string;
  name: string;
  url: string;
  headers: Record<string, string>;
}

/** The conditional blocks a visitor's claims show or hide, per page (tryVisitorClaims). */
export interface ClaimsContent {
  pages: Array<{ siteSpace: string; space: string; page: string; title: string; path: string; blocks: Array<{ condition: string; shown: boolean; text: string }> }>;
}
