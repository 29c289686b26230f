import type { PeopleTables } from './tables/people.ts';
import type { ContentTables } from './tables/content.ts';
import type { JobsTables } from './tables/jobs.ts';
import type { SearchTables } from './tables/search.ts';
import type { ChangeRequestsTables } from './tables/change-requests.ts';
import type { SitesTables } from './tables/sites.ts';
import type { IntegrationsTables } from './tables/integrations.ts';
import type { TranslationsTables } from './tables/translations.ts';
import type { GitTables } from './tables/git.ts';
import type { OpenapiTables } from './tables/openapi.ts';
import type { SignInTables } from './tables/sign-in.ts';
import type { FederatedSignInTables } from './tables/federated-sign-in.ts';
import type { LiveTables } from './tables/live.ts';

/**
 * Every table of Quire, for Kysely: the tables are declared by domain in src/db/tables/, with the column
 * conventions of both databases in src/db/tables/columns.ts. A new table goes into its domain's file.
 */
export interface DB extends PeopleTables, ContentTables, JobsTables, SearchTables, ChangeRequestsTables, SitesTables, IntegrationsTables, TranslationsTables, GitTables, OpenapiTables, SignInTables, FederatedSignInTables, LiveTables {}
