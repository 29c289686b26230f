/**
 * The API's role-matrix tests once more, with browser sessions instead of API tokens: every test user's
 * client sends a session cookie (and X-CSRF-Token on writes) in place of its Bearer token
 * (QUIRE_TEST_AUTH=session, test/helpers/app.ts), and every answer must be the same.
 */
process.env.QUIRE_TEST_AUTH = 'session';
await import('../sharing/permissions.test.ts');
await import('../api/organizations.test.ts');
await import('../api/teams.test.ts');
await import('../api/collections.test.ts');
await import('../api/comments-roles.test.ts');
await import('../api/members.test.ts');
await import('../api/change-requests.test.ts');
await import('../api/spaces-lifecycle.test.ts');
await import('../api/sites.test.ts');
export {};
