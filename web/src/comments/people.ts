import { useQuery } from '../api/cache.ts';
import { api } from '../api/operations.ts';
import type { Mentionable } from './mentions.ts';

/** The members of the space's organization, as the comment boxes offer them after `@` (`listMembers`). */
export function usePeople(spaceId: string): Mentionable[] | undefined {
  const space = useQuery(`space:${spaceId}`, () => api.space(spaceId));
  const organizationId = space.data?.organization;
  const members = useQuery(organizationId ? `members:${organizationId}` : null, () => api.members(organizationId!));
  return members.data?.items.map((member) => ({ id: member.user.id, name: member.user.displayName }));
}
