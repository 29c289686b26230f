import type { SiteCustomizationSettings } from '../sites/customization.ts';

/**
 * What one reader sees of a site's structure: the sections and variants (site spaces) left after their
 * conditions and the trash, each with the path it is served under. Built once per (site version, visible
 * set, address) and shared by every request with the same key.
 */
export interface VariantView {
  /** The site space's id. */
  id: string;
  spaceId: string;
  title: string;
  /** Path segments below the site root: the section's and the variant's own, defaults adding none. */
  segments: string[];
  isDefault: boolean;
  section: SectionView | null;
  /** The language its space declares (a translation's result declares its own), null when none. */
  language: string | null;
}

export interface SectionView {
  id: string;
  title: string;
  description: string | null;
  /** The section's own segment ('' for the default section). */
  segment: string;
  isDefault: boolean;
  variants: VariantView[];
}

export type TabView = { kind: 'section'; section: SectionView } | { kind: 'group'; id: string; title: string; sections: SectionView[] };

export interface SiteView {
  siteId: string;
  title: string;
  visibility: string;
  /** URL path of the site root on this address ('' at the root of a host). */
  root: string;
  origin: string;
  tabs: TabView[];
  sections: SectionView[];
  variants: VariantView[];
  defaultVariant: VariantView | null;
  /** The site's customization, complete: the site's own and each site space's (with its override). */
  settings: SiteCustomizationSettings;
  settingsBySiteSpace: Map<string, SiteCustomizationSettings>;
  /** The cache key this view was built for; it names everything a rendered page depends on but the revision and page. */
  key: string;
}
