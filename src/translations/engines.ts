import { execFileSync } from 'node:child_process';
import type { TranslationConfig, TranslationEngineName } from '../config.ts';
import { ApertiumEngine } from './apertium.ts';
import { ApertiumApyEngine } from './apertium-apy.ts';
import { DeepLEngine } from './deepl.ts';
import type { TranslationEngine } from './engine.ts';
import { LibreTranslateEngine } from './libretranslate.ts';
import { OpenAIEngine } from './openai.ts';

let apertiumPresent: boolean | undefined;

/** Whether the `apertium` command is installed (looked up once per process). */
export function hasApertium(): boolean {
  if (apertiumPresent === undefined) {
    try {
      execFileSync('sh', ['-c', 'command -v apertium'], { stdio: 'ignore' });
      apertiumPresent = true;
    } catch {
      apertiumPresent = false;
    }
  }
  return apertiumPresent;
}

const engines = new Map<string, TranslationEngine | null>();

/**
 * The engine the configuration names (QUIRE_TRANSLATION_ENGINE), one per configuration per process;
 * null when there is none ('none', or 'auto' without the apertium command).
 */
export function translationEngine(config: TranslationConfig): TranslationEngine | null {
  const key = JSON.stringify(config);
  if (!engines.has(key)) engines.set(key, makeEngine(config));
  return engines.get(key)!;
}

function makeEngine(config: TranslationConfig): TranslationEngine | null {
  switch (config.engine) {
    case 'none':
      return null;
    case 'auto':
      return hasApertium() ? new ApertiumEngine() : null;
    case 'apertium':
      return config.url ? new ApertiumApyEngine(config.url) : new ApertiumEngine();
    case 'deepl':
      return new DeepLEngine(config.url!, config.apiKey);
    case 'libretranslate':
      return new LibreTranslateEngine(config.url!, config.apiKey);
    case 'openai':
      return new OpenAIEngine(config.url!, config.apiKey, config.model!);
  }
}

/** An engine by name, 'auto' resolved. */
export type ResolvedEngineName = Exclude<TranslationEngineName, 'auto'>;

/** The engine that an organization without a choice of its own gets: the server's, 'auto' resolved. */
export function serverEngineName(config: TranslationConfig): ResolvedEngineName {
  if (config.engine === 'auto') return hasApertium() ? 'apertium' : 'none';
  return config.engine;
}

/**
 * The engines this server offers an organization (decision 0114): the one the operator configured (with its
 * address and key, which stay the operator's), and Apertium on this machine when its command is installed.
 * An organization picks among these only, so nobody but the operator points Quire at another server.
 */
export function offeredEngines(config: TranslationConfig): ResolvedEngineName[] {
  const offered = new Set<ResolvedEngineName>();
  const server = serverEngineName(config);
  if (server !== 'none') offered.add(server);
  if (hasApertium()) offered.add('apertium');
  return [...offered];
}

/**
 * The engine of an organization: its own choice when the server still offers it, else the server's. The
 * configured server engine keeps its address; Apertium chosen beside another configured engine is the local
 * command.
 */
export function engineFor(config: TranslationConfig, chosen: string | null): TranslationEngine | null {
  const server = serverEngineName(config);
  if (!chosen || chosen === server || !offeredEngines(config).includes(chosen as ResolvedEngineName)) return translationEngine(config);
  return translationEngine({ engine: chosen as ResolvedEngineName });
}
