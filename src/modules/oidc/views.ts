import type { TeamView } from '../../access/teams.ts';
import type { OidcProviderRow } from '../../db/rows.ts';

/** A provider as services load it: the row and, when it names one, its default team. */
export interface OidcProviderView {
  provider: OidcProviderRow;
  defaultTeam: TeamView | null;
}
