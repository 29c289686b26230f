import { execFileSync } from 'node:child_process';
import type { TranslationConfig } from '../config.ts';
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
