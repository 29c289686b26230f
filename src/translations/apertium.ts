import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineError, type EngineCapabilities, type TranslateRequest, type TranslationEngine } from './engine.ts';
import { fromIso6393, ISO_639_3, isTranslationLanguage } from './languages.ts';

/**
 * Apertium, the open-source rule-based engine, run locally as a command (`apt-get install apertium
 * apertium-eng-spa`): nothing but the machine. Its HTML mode keeps tags where they are, so placeholders
 * come back around the words they wrapped. A batch of segments is one run of the command, each segment in
 * its own `<p>` (a block: Apertium does not reorder words across it) so the answer splits back into the same segments.
 */
/**
 * Placeholders as Apertium's HTML mode keeps them in the flow of the sentence: it knows `<span>` as inline
 * (an unknown `<x>` ends a sentence for it, so the next word came back capitalized), and an empty element
 * also starts a new sentence for it, so a standalone placeholder carries a middle dot. The command and
 * apertium-apy (src/translations/apertium-apy.ts) share them.
 */
export function toApertium(segment: string): string {
  return segment.replace(/<x id="(\d+)"\/>/g, '<span id="q$1">·</span>').replace(/<x id="(\d+)">/g, '<span id="q$1">').replace(/<\/x>/g, '</span>');
}

export function fromApertium(text: string): string {
  return text.replace(/<span id="q(\d+)">·<\/span>/g, '<x id="$1"/>').replace(/<span id="q(\d+)">/g, '<x id="$1">').replace(/<\/span>/g, '</x>');
}

/**
 * What Apertium adds that is not translation: `-u` (markUnknown=no) drops the `*` before words missing from
 * its dictionaries, so "Prerequisites" passes through as it is, but words its generator or transfer could
 * not handle still come back as `#word` or `@word`, and a multiword it rewrites leaves two spaces. Those
 * marks are removed where the source had no such character, and doubled spaces where the source had none.
 */
export function cleanApertium(source: string, translated: string): string {
  let text = translated;
  for (const mark of ['#', '@']) {
    if (!source.includes(mark)) text = text.replace(new RegExp(`(?<!&)${mark}(?=[\\p{L}\\p{N}])`, 'gu'), '');
  }
  if (!/ {2}/.test(source)) text = text.replace(/ {2,}/g, ' ');
  return text;
}

export class ApertiumEngine implements TranslationEngine {
  readonly name = 'apertium';
  private cached: Promise<EngineCapabilities> | undefined;

  constructor(private readonly command = 'apertium') {}

  capabilities(): Promise<EngineCapabilities> {
    this.cached ??= this.listPairs().then(
      (pairs) => ({ pairs, formats: ['html'], glossary: false, instructions: false, maxSegments: 2000, maxCharacters: 200_000 }),
      (error: unknown) => {
        this.cached = undefined;
        throw error;
      },
    );
    return this.cached;
  }

  async translate(request: TranslateRequest): Promise<string[]> {
    const mode = `${ISO_639_3[request.from as keyof typeof ISO_639_3]}-${ISO_639_3[request.to as keyof typeof ISO_639_3]}`;
    const input = request.segments.map((segment, index) => `<p id="s${index}">${toApertium(segment).replace(/\n/g, '<br/>')}</p>`).join('\n');
    // The command reads its input from a file: from a pipe it opens /dev/stdin, which a socket pair (what
    // Node gives a child) cannot be opened as.
    const folder = await mkdtemp(join(tmpdir(), 'quire-apertium-'));
    let output: string;
    try {
      const file = join(folder, 'in.html');
      await writeFile(file, input, 'utf8');
      output = await this.run(['-u', '-f', 'html', mode, file], '');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    const found = new Map<number, string>();
    for (const match of output.matchAll(/<p id="s(\d+)">([\s\S]*?)<\/p>/g)) found.set(Number(match[1]), fromApertium(match[2].replace(/<br\/>/g, '\n')));
    return request.segments.map((segment, index) => {
      const text = found.get(index);
      if (text === undefined) throw new EngineError(`Apertium (${mode}) lost segment ${index} of ${request.segments.length}.`);
      return cleanApertium(segment, text);
    });
  }

  private async listPairs(): Promise<EngineCapabilities['pairs']> {
    const output = await this.run(['-l'], '');
    const pairs: EngineCapabilities['pairs'] = [];
    for (const line of output.split('\n')) {
      const match = /^\s*([a-z]{2,3})-([a-z]{2,3})\s*$/.exec(line);
      if (!match) continue;
      const from = fromIso6393(match[1]);
      const to = fromIso6393(match[2]);
      if (from && to && isTranslationLanguage(from) && !pairs.some((p) => p.from === from && p.to === to)) pairs.push({ from, to });
    }
    return pairs;
  }

  private run(args: string[], input: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.command, args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: 10 * 60 * 1000 });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', (error) => reject(new EngineError(`The apertium command could not run: ${error.message}`)));
      child.on('close', (code, signal) => {
        if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
        else reject(new EngineError(`apertium ${args.join(' ')} stopped (${signal ?? `exit ${code}`}): ${Buffer.concat(err).toString('utf8').trim().slice(0, 500)}`));
      });
      child.stdin.on('error', () => {});
      child.stdin.end(input, 'utf8');
    });
  }
}
