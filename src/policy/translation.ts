import { organizationRules, type OrganizationActor } from './organization.ts';
import { spaceRules, type SpaceActor } from './space.ts';

/**
 * The caller on a translation: their standing in the organization and on the source space (null when they
 * cannot read it). A translation is as visible as its source; changing one needs the organization's content
 * permission (the create role), as creating one does.
 */
export interface TranslationActor {
  organization: OrganizationActor;
  source: SpaceActor | null;
}

export const translationRules = {
  view: (a: TranslationActor) => a.source !== null && spaceRules.view(a.source),
  edit: (a: TranslationActor) => translationRules.view(a) && organizationRules.createContent(a.organization),
  /** Create a translation of a space the caller can read. */
  create: (a: TranslationActor) => translationRules.view(a) && organizationRules.createContent(a.organization),
};

export function translationPermissions(a: TranslationActor): { view: boolean; edit: boolean } {
  return { view: translationRules.view(a), edit: translationRules.edit(a) };
}

export const glossaryRules = {
  /** Members read the glossary; guests do not. */
  view: (a: OrganizationActor) => a.role !== null,
  edit: organizationRules.createContent,
};

/** The organization's translation engine (decision 0114): members read it, administrators choose it. */
export const translationEngineRules = {
  view: (a: OrganizationActor) => a.role !== null,
  update: organizationRules.admin,
};
