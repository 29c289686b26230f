import type { Context } from '../../context.ts';
import { inTransaction } from '../../context.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { BadRequest } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { engineFor, offeredEngines, serverEngineName, type ResolvedEngineName as TranslationEngineName } from '../../translations/engines.ts';
import type { TranslationEngine } from '../../translations/engine.ts';

/** The engine an organization translates with, and what it may choose from (decision 0114). */
export interface TranslationEngineSetting {
  /** The engine in use: the organization's choice, else the server's ('none' when there is none). */
  engine: TranslationEngineName;
  /** The organization's own choice; null follows the server's configuration. */
  chosen: TranslationEngineName | null;
  /** The server's engine, used when the organization has no choice of its own. */
  server: TranslationEngineName;
  /** The engines the organization may choose. */
  offered: TranslationEngineName[];
}

function settingOf(ctx: Context, stored: string | null): TranslationEngineSetting {
  const offered = offeredEngines(ctx.config.translation);
  const server = serverEngineName(ctx.config.translation);
  // A choice the server no longer offers (the operator removed the engine) falls back to the server's.
  const chosen = stored && offered.includes(stored as TranslationEngineName) ? (stored as TranslationEngineName) : null;
  return { engine: chosen ?? server, chosen, server, offered };
}

/** The organization's translation engine (members; guests are refused). */
export async function getTranslationEngine(ctx: Context, organizationId: string): Promise<TranslationEngineSetting> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'translationEngine.view', actor);
  return settingOf(ctx, organization.translation_engine);
}

/**
 * Chooses the organization's engine among those the server offers (administrators), or null to follow the
 * server's. Translations are not run again by this: each page is translated by the new engine at its next
 * change (a run's settings hash includes the engine's name, so the next run of each translation redoes its pages).
 */
export async function setTranslationEngine(ctx: Context, organizationId: string, engine: string | null): Promise<TranslationEngineSetting> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'translationEngine.update', actor);
    const offered = offeredEngines(tx.config.translation);
    if (engine !== null && !offered.includes(engine as TranslationEngineName)) {
      throw new BadRequest(`The body member "engine" is "${engine}", which this server does not offer; it offers ${offered.length ? offered.join(', ') : 'no engine'} (or null for the server's own).`);
    }
    await tx.db.updateTable('organizations').set({ translation_engine: engine }).where('id', '=', organization.id).execute();
    return settingOf(tx, engine);
  });
}

/** The engine object that translates for an organization; null when it has none. */
export async function organizationEngine(ctx: Context, organizationId: string): Promise<TranslationEngine | null> {
  const row = await ctx.db.selectFrom('organizations').select('translation_engine').where('id', '=', organizationId).executeTakeFirst();
  return engineFor(ctx.config.translation, row?.translation_engine ?? null);
}
