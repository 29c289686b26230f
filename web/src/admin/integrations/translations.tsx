import '../people/admin.css';
import { useEffect, useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { api } from '../../api/operations.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { all, call } from '../people/api.ts';
import { ActionError, Section, useAction, when } from '../people/ui.tsx';

const LANGUAGES: Record<string, string> = {
  en: 'English', fr: 'French', de: 'German', es: 'Spanish', it: 'Italian', pt: 'Portuguese', ru: 'Russian', ja: 'Japanese', zh: 'Chinese',
  ko: 'Korean', ar: 'Arabic', hi: 'Hindi', nl: 'Dutch', pl: 'Polish', tr: 'Turkish', sv: 'Swedish', no: 'Norwegian', da: 'Danish',
  fi: 'Finnish', el: 'Greek', cs: 'Czech', hu: 'Hungarian', ro: 'Romanian', th: 'Thai', vi: 'Vietnamese', id: 'Indonesian', ms: 'Malay',
  he: 'Hebrew', uk: 'Ukrainian', sk: 'Slovak', bg: 'Bulgarian', hr: 'Croatian', lt: 'Lithuanian', lv: 'Latvian', et: 'Estonian', sl: 'Slovenian',
};

interface Translation {
  id: string;
  status: 'pending' | 'running' | 'completed';
  source: { space: string; language: string };
  language: string;
  instructions: unknown;
  result?: { space: string; revision: string };
  updatedAt: string;
  stats: { runs: number; totalPages: number; latestPages: number; latestWords: number };
  error?: string;
  permissions?: { edit?: boolean };
}

interface PageStatus {
  page: string;
  status: 'translated' | 'current' | 'edited';
  words: number;
  translatedAt: string;
}

interface GlossaryEntry {
  id: string;
  translations: Record<string, string>;
}

const STATUS_WORDS: Record<Translation['status'], string> = { pending: 'Waiting to run', running: 'Translating…', completed: 'Up to date' };
const PAGE_WORDS: Record<PageStatus['status'], string> = { translated: 'Translated by the latest run', current: 'Unchanged since', edited: 'Edited by hand (kept)' };

/** Translations of spaces: start one (space and language), its state and pages, run it again; the glossary. */
export function TranslationsSection(props: { organizationId: string }) {
  const key = `admin:${props.organizationId}:translations`;
  const translations = useQuery(key, () => all<Translation>('listTranslations', { organizationId: props.organizationId }));
  const spaces = useQuery(`admin:${props.organizationId}:spaces`, () => api.spaces(props.organizationId));
  const [source, setSource] = useState('');
  const [language, setLanguage] = useState('fr');
  const [open, setOpen] = useState<string | null>(null);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const action = useAction();
  const titleOf = (id: string) => spaces.data?.items.find((space) => space.id === id)?.title ?? id;

  const active = translations.data?.some((translation) => translation.status !== 'completed') ?? false;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => invalidate(key), 3000);
    return () => clearInterval(timer);
  }, [active]);

  const start = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const created = await call<Translation & { glossarySuggestions?: string[] }>('createTranslation', { organizationId: props.organizationId }, { source: { space: source }, language });
      setSuggestions(created.glossarySuggestions ?? []);
      setOpen(created.id);
      invalidate(key);
    });
  };
  const again = (translation: Translation) =>
    action.run(async () => {
      await call('updateTranslation', { organizationId: props.organizationId, translationId: translation.id }, { instructions: translation.instructions });
      invalidate(key);
    });
  const remove = (translation: Translation) => {
    if (!window.confirm('Stop this translation? The translated space is kept.')) return;
    void action.run(async () => {
      await call('deleteTranslation', { organizationId: props.organizationId, translationId: translation.id });
      invalidate(key);
    });
  };

  return (
    <>
      <p class="lead">Quire translates a space into another space with a machine-translation engine, and translates again each page that changes; pages edited by hand in the translation are kept.</p>
      <EngineChoice organizationId={props.organizationId} />
      <form class="row" onSubmit={start} aria-label="Translate a space">
        <div class="field">
          <label for="translation-source">Space</label>
          <select id="translation-source" value={source} required onChange={(event) => setSource((event.currentTarget as HTMLSelectElement).value)}>
            <option value="">Choose a space…</option>
            {(spaces.data?.items ?? []).map((space) => <option key={space.id} value={space.id}>{space.title}</option>)}
          </select>
        </div>
        <div class="field">
          <label for="translation-language">Into</label>
          <select id="translation-language" value={language} onChange={(event) => setLanguage((event.currentTarget as HTMLSelectElement).value)}>
            {Object.entries(LANGUAGES).map(([code, name]) => <option key={code} value={code}>{name}</option>)}
          </select>
        </div>
        <button type="submit" class="button primary" disabled={action.busy || !source}>Start translating</button>
      </form>
      <ActionError error={action.error} />
      {suggestions.length > 0 && <p class="notice" role="status">Names that may need to stay as they are (add them to the glossary below): {suggestions.join(', ')}</p>}
      {translations.error && <ErrorNote error={translations.error} />}
      {translations.data && translations.data.length === 0 && <p class="empty">No translations yet: choose a space and a language, then <strong>Start translating</strong>.</p>}
      {translations.data?.map((translation) => (
        <div key={translation.id} class="panel">
          <div class="section-head">
            <h2 id={`translation-${translation.id}`}>{titleOf(translation.source.space)} → {LANGUAGES[translation.language] ?? translation.language}</h2>
            <span class={`status-${translation.status === 'completed' ? 'complete' : 'pending'}`}>{STATUS_WORDS[translation.status]}</span>
          </div>
          <p class="meta">{translation.stats.runs} run(s) · {translation.stats.totalPages} page(s) · last run {translation.stats.latestPages} page(s), {translation.stats.latestWords} word(s) · updated {when(translation.updatedAt)}</p>
          {translation.error && <p class="error-note" role="alert">The last run failed and will be tried again: {translation.error}</p>}
          <div class="row">
            <button type="button" class="button" aria-expanded={open === translation.id} onClick={() => setOpen(open === translation.id ? null : translation.id)}>{open === translation.id ? 'Hide pages' : 'Pages'}</button>
            <button type="button" class="button" onClick={() => again(translation)} disabled={action.busy}>{translation.error ? 'Retry now' : 'Translate again'}</button>
            <button type="button" class="button danger" onClick={() => remove(translation)} disabled={action.busy}>Stop</button>
          </div>
          {open === translation.id && <TranslationPages organizationId={props.organizationId} translation={translation} />}
        </div>
      ))}
      <Glossary organizationId={props.organizationId} />
    </>
  );
}

function TranslationPages(props: { organizationId: string; translation: Translation }) {
  const pages = useQuery(`admin:${props.organizationId}:translations:${props.translation.id}:pages:${props.translation.updatedAt}`, () =>
    call<{ items: PageStatus[] }>('listTranslationPages', { organizationId: props.organizationId, translationId: props.translation.id }),
  );
  const result = useQuery(props.translation.result ? `space:${props.translation.result.space}:content` : null, () => api.spaceContent(props.translation.result!.space));
  const titles = new Map<string, string>();
  const walk = (items: Array<{ id: string; title: string; pages?: unknown[] }>) => {
    for (const item of items) {
      titles.set(item.id, item.title);
      walk((item.pages ?? []) as Array<{ id: string; title: string; pages?: unknown[] }>);
    }
  };
  if (result.data) walk(result.data.pages as Array<{ id: string; title: string; pages?: unknown[] }>);
  if (pages.error) return <ErrorNote error={pages.error} />;
  if (!pages.data) return <p aria-busy="true">Loading…</p>;
  if (pages.data.items.length === 0) return <p class="empty">No page is translated yet.</p>;
  return (
    <ul class="nav-list">
      {pages.data.items.map((page) => (
        <li key={page.page}>{titles.get(page.page) ?? page.page} <span class="meta">{PAGE_WORDS[page.status]} · {page.words} word(s) · {when(page.translatedAt)}</span></li>
      ))}
    </ul>
  );
}

interface EngineSetting {
  engine: string;
  chosen: string | null;
  server: string;
  offered: string[];
}

const ENGINE_NAMES: Record<string, string> = { apertium: 'Apertium', deepl: 'DeepL', libretranslate: 'LibreTranslate', openai: 'OpenAI-compatible model', none: 'none' };

/**
 * The engine the organization translates with: one of those the server offers, or the server's own
 * (administrators change it; the next run of each translation uses it).
 */
function EngineChoice(props: { organizationId: string }) {
  const key = `admin:${props.organizationId}:translations-engine`;
  const setting = useQuery(key, () => call<EngineSetting>('getTranslationEngine', { organizationId: props.organizationId }));
  const action = useAction();
  const [picked, setPicked] = useState<string | null>(null);
  if (setting.error) return <ErrorNote error={setting.error} />;
  if (!setting.data) return <p aria-busy="true">Loading…</p>;
  const current = picked ?? setting.data.chosen ?? '';
  const save = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await call('updateTranslationEngine', { organizationId: props.organizationId }, { engine: current === '' ? null : current });
      setPicked(null);
      invalidate(key);
    });
  };
  const name = (engine: string) => ENGINE_NAMES[engine] ?? engine;
  return (
    <form class="row" onSubmit={save} aria-label="Translation engine">
      <div class="field">
        <label for="translation-engine">Engine</label>
        <select id="translation-engine" value={current} onChange={(event) => setPicked((event.currentTarget as HTMLSelectElement).value)}>
          <option value="">The server's ({name(setting.data.server)})</option>
          {setting.data.offered.map((engine) => <option key={engine} value={engine}>{name(engine)}</option>)}
        </select>
      </div>
      <button type="submit" class="button" disabled={action.busy || current === (setting.data.chosen ?? '')}>Use this engine</button>
      <p class="meta" role="status">Translating with {name(setting.data.engine)}.</p>
      <ActionError error={action.error} />
    </form>
  );
}

/** The glossary: terms kept or translated one fixed way, one row a term, one column a language. */
function Glossary(props: { organizationId: string }) {
  const key = `admin:${props.organizationId}:glossary`;
  const entries = useQuery(key, () => all<GlossaryEntry>('listGlossary', { organizationId: props.organizationId }));
  const [term, setTerm] = useState('');
  const [target, setTarget] = useState('fr');
  const [translated, setTranslated] = useState('');
  const action = useAction();
  const save = (operations: unknown[]) =>
    action.run(async () => {
      await call('updateGlossary', { organizationId: props.organizationId }, { operations });
      invalidate(key);
    });
  const add = (event: Event) => {
    event.preventDefault();
    void save([{ type: 'insert', translations: { en: term.trim(), [target]: translated.trim() || term.trim() } }]).then(() => {
      setTerm('');
      setTranslated('');
    });
  };
  return (
    <Section id="glossary" title="Glossary" lead="A term here is always translated as written (give the same word to keep a product name as it is). Changing the glossary translates again.">
      <form class="row" onSubmit={add} aria-label="Add a glossary term">
        <label>Term (English)<input value={term} required maxLength={255} onInput={(event) => setTerm((event.currentTarget as HTMLInputElement).value)} /></label>
        <div class="field">
          <label for="glossary-language">Language</label>
          <select id="glossary-language" value={target} onChange={(event) => setTarget((event.currentTarget as HTMLSelectElement).value)}>
            {Object.entries(LANGUAGES).filter(([code]) => code !== 'en').map(([code, name]) => <option key={code} value={code}>{name}</option>)}
          </select>
        </div>
        <label>Translation (empty: keep the term)<input value={translated} maxLength={255} onInput={(event) => setTranslated((event.currentTarget as HTMLInputElement).value)} /></label>
        <button type="submit" class="button" disabled={action.busy || !term.trim()}>Add term</button>
      </form>
      <ActionError error={action.error} />
      {entries.error && <ErrorNote error={entries.error} />}
      {entries.data && entries.data.length === 0 && <p class="empty">The glossary is empty: add a term and how it is translated with <strong>Add term</strong>.</p>}
      <ul class="nav-list">
        {entries.data?.map((entry) => (
          <li key={entry.id} class="row">
            <span>{Object.entries(entry.translations).map(([code, text]) => `${code}: ${text}`).join(' · ')}</span>
            <button type="button" class="button" onClick={() => save([{ type: 'delete', id: entry.id }])} disabled={action.busy} aria-label={`Delete ${Object.values(entry.translations)[0] ?? 'term'}`}>Delete</button>
          </li>
        ))}
      </ul>
    </Section>
  );
}
