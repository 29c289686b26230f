import { Type, type Static } from 'typebox';
import { MemberSchema } from '../members/schemas.ts';
import { TeamMembershipSchema } from './schemas.ts';

/*
 * Kept apart from schemas.ts so that the members area can import the team schemas without an import cycle.
 */
export const TeamMemberItemSchema = Type.Object({
  organization: MemberSchema,
  team: TeamMembershipSchema,
  permissions: Type.Object({ view: Type.Boolean({ description: 'Whether the caller may see this membership of the organization.' }) }),
});
export type TeamMemberItem = Static<typeof TeamMemberItemSchema>;
