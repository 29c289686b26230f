import { BadRequest } from '../errors.ts';
import { CUSTOMIZATION_ROOT, CUSTOMIZATION_SHAPES } from './customization-shape.ts';

/**
 * Customization settings name only members the client's document gives SiteCustomizationSettings
 * (customization-shape.ts, generated from it): the route's schema checks the settings the reader uses and
 * leaves the rest open, so without this a member of any name, nested to any depth, was stored as given.
 * One walk with a stack of its own (the body's depth is bounded before it is parsed).
 */
export function unknownCustomizationMember(settings: unknown, extra: readonly string[] = []): string | undefined {
  const stack: Array<[unknown, string, string]> = [[settings, CUSTOMIZATION_ROOT, '']];
  while (stack.length > 0) {
    const [value, shapeId, path] = stack.pop()!;
    const shape = CUSTOMIZATION_SHAPES[shapeId];
    if (!shape || value === null || typeof value !== 'object') continue;
    if ('items' in shape) {
      if (Array.isArray(value)) value.forEach((item, index) => stack.push([item, shape.items, `${path}.${index}`]));
      continue;
    }
    if (Array.isArray(value)) continue;
    for (const [key, child] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      const childShape = Object.hasOwn(shape.members, key) ? shape.members[key] : undefined;
      if (childShape === undefined) {
        if (path === '' && extra.includes(key)) continue;
        return at;
      }
      stack.push([child, childShape, at]);
    }
  }
  return undefined;
}

/** Refuses (400) settings that hold a member the client's document does not name, naming it. */
export function refuseUnknownCustomizationMembers(settings: unknown, extra: readonly string[] = []): void {
  const member = unknownCustomizationMember(settings, extra);
  if (member !== undefined) throw new BadRequest(`The body has a member "${member}" that this operation does not accept (it is not a setting of SiteCustomizationSettings).`);
}
