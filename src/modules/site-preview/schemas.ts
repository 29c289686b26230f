import { Type, type Static } from 'typebox';
import { CustomizationOverride, CustomizationSettings } from '../reader/schemas.ts';

export const PreviewParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }), siteId: Type.String({ minLength: 1, maxLength: 100 }) });

export const PreviewBody = Type.Object({
  settings: CustomizationSettings,
  siteSpace: Type.Optional(Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), override: CustomizationOverride })),
});
export type PreviewBody = Static<typeof PreviewBody>;

export const PreviewAnswer = Type.Object({
  url: Type.String({ format: 'uri', description: 'The site as the reader would show it with these settings, valid for ten minutes' }),
  expiresAt: Type.String({ format: 'date-time' }),
});
export type PreviewAnswer = Static<typeof PreviewAnswer>;
