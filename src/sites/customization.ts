import type { SiteRow } from '../db/rows.ts';

/**
 * The customization settings of a site as the client's SiteCustomizationSettings describes them. Quire does
 * not store customizations yet: every site (and every site space) is shown with these defaults.
 */
export interface ThemedColor {
  light: string;
  dark: string;
}

export interface SiteCustomizationSettings {
  title?: string;
  styling: {
    theme: 'clean' | 'muted' | 'bold' | 'gradient';
    primaryColor: ThemedColor;
    tint?: { color: ThemedColor };
    infoColor: ThemedColor;
    successColor: ThemedColor;
    warningColor: ThemedColor;
    dangerColor: ThemedColor;
    corners: 'straight' | 'rounded' | 'circular';
    depth: 'subtle' | 'flat';
    links: 'default' | 'accent';
    font: string;
    monospaceFont: string;
    background: 'plain' | 'match';
    icons: 'regular' | 'solid' | 'duotone' | 'light' | 'thin';
    sidebar: { background: 'default' | 'filled'; list: 'default' | 'pill' | 'line' };
    search: 'prominent' | 'subtle';
  };
  internationalization: { locale: 'en' | 'fr' | 'es' | 'zh' | 'ja' | 'de' | 'nl' | 'no' | 'pt-br' };
  favicon: Record<string, never>;
  header: { preset: 'default' | 'bold' | 'contrast' | 'custom' | 'none'; links: unknown[] };
  footer: { groups: unknown[]; copyright?: string };
  themes: { default: 'light' | 'dark'; toggeable: boolean };
  pdf: { enabled: boolean };
  feedback: { enabled: boolean };
  ai: { mode: 'none' | 'search' | 'assistant' };
  advancedCustomization: { enabled: boolean };
  trademark: { enabled: boolean };
  externalLinks: { target: 'self' | 'blank' };
  pagination: { enabled: boolean };
  pageActions: { externalAI: boolean; markdown: boolean };
  git: { showEditLink: boolean };
  privacyPolicy: { url?: string };
  socialPreview: { url?: string };
  insights: { trackingCookie: boolean };
}

const color = (light: string, dark: string): ThemedColor => ({ light, dark });

/** The complete default customization of a site, titled as the site. */
export function defaultCustomization(site: SiteRow): SiteCustomizationSettings {
  return {
    title: site.title,
    styling: {
      theme: 'clean',
      primaryColor: color('#346DDB', '#346DDB'),
      infoColor: color('#787878', '#787878'),
      successColor: color('#00C950', '#00C950'),
      warningColor: color('#FE9A00', '#FE9A00'),
      dangerColor: color('#FB2C36', '#FB2C36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'prominent',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'light', toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    ai: { mode: 'none' },
    advancedCustomization: { enabled: true },
    trademark: { enabled: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    pageActions: { externalAI: false, markdown: true },
    git: { showEditLink: false },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: false },
  };
}
