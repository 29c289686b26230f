import type { Template } from './types.ts';

const introduction = `This is the reference of the HTTP API: every request and answer is JSON over HTTPS.

## Base URL

\`\`\`
https://api.example.com/v1
\`\`\`

## Conventions

* Send \`Content-Type: application/json\` with every request that has a body.
* Times are ISO 8601 strings in UTC, such as \`2026-01-31T09:30:00Z\`.
* Identifiers are opaque strings: store them as they are, never parse them.
* Lists answer \`{ "items": [...], "next": { "page": "…" } }\`: pass \`next.page\` as the \`page\` query
  parameter to read the next page.

{% hint style="info" %}
New to the API? Read [Authentication](authentication.md), then make your first request below.
{% endhint %}

## Your first request

{% tabs %}
{% tab title="curl" %}
\`\`\`bash
curl https://api.example.com/v1/user \\
  -H "Authorization: Bearer $API_TOKEN"
\`\`\`
{% endtab %}

{% tab title="JavaScript" %}
\`\`\`javascript
const response = await fetch('https://api.example.com/v1/user', {
  headers: { Authorization: \`Bearer \${process.env.API_TOKEN}\` },
});
console.log(await response.json());
\`\`\`
{% endtab %}

{% tab title="Python" %}
\`\`\`python
import os, requests

response = requests.get(
    "https://api.example.com/v1/user",
    headers={"Authorization": f"Bearer {os.environ['API_TOKEN']}"},
)
print(response.json())
\`\`\`
{% endtab %}
{% endtabs %}
`;

const authentication = `Every request is authenticated with an API token sent in the \`Authorization\` header.

\`\`\`http
GET /v1/user HTTP/1.1
Host: api.example.com
Authorization: Bearer <your token>
\`\`\`

## Getting a token

1. Open your account settings.
2. Choose **API tokens**, then **Create token**.
3. Copy the token: it is shown only once.

{% hint style="danger" %}
A token acts as you. Keep it secret: never commit it, never put it in client-side code, and revoke it as
soon as you think it leaked.
{% endhint %}

## Scopes

| Scope | Allows |
| --- | --- |
| \`read\` | Reading every resource you can see. |
| \`write\` | Creating and changing resources. |
| \`admin\` | Managing members and settings. |
`;

const errors = `Errors use the HTTP status codes, and always answer the same JSON shape:

\`\`\`json
{
  "error": {
    "code": 404,
    "message": "No project \\"prj_123\\" exists."
  }
}
\`\`\`

| Status | Meaning | What to do |
| --- | --- | --- |
| \`400\` | The request is not valid. | Read \`message\`: it names the field. |
| \`401\` | No token, or an invalid one. | Check the \`Authorization\` header. |
| \`403\` | The token may not do this. | Use a token with the right scope. |
| \`404\` | Not found, or not visible to you. | Check the identifier. |
| \`409\` | Conflicts with the current state. | Read the resource again, then retry. |
| \`429\` | Too many requests. | Wait for \`Retry-After\` seconds. |
| \`5xx\` | A problem on our side. | Retry with exponential backoff. |
`;

const pagination = `Lists are paginated with an opaque cursor.

\`\`\`json
{
  "items": [{ "id": "prj_1" }, { "id": "prj_2" }],
  "count": 42,
  "next": { "page": "eyJpZCI6InByal8yIn0" }
}
\`\`\`

* \`limit\` sets the page size (default 50, at most 1000).
* When \`next\` is absent, you have read the last page.
* A cursor belongs to one list with its filters: do not reuse it elsewhere.

{% code title="Reading every page" %}
\`\`\`javascript
let page;
do {
  const url = new URL('https://api.example.com/v1/projects');
  if (page) url.searchParams.set('page', page);
  const body = await (await fetch(url, { headers })).json();
  body.items.forEach(handle);
  page = body.next?.page;
} while (page);
\`\`\`
{% endcode %}
`;

const rateLimits = `Each token may make 600 requests per minute. Every answer carries the current state:

| Header | Meaning |
| --- | --- |
| \`RateLimit-Limit\` | Requests allowed per window. |
| \`RateLimit-Remaining\` | Requests left in the current window. |
| \`RateLimit-Reset\` | Seconds until the window resets. |

Past the limit, requests answer \`429\` with a \`Retry-After\` header.
`;

const endpoints = `Document each resource on its own page: what it represents, its fields, and its operations.

## The project object

| Field | Type | Description |
| --- | --- | --- |
| \`id\` | string | Unique identifier. |
| \`name\` | string | Display name, 1 to 100 characters. |
| \`createdAt\` | string | When it was created (ISO 8601). |

## List projects

\`GET /v1/projects\`

## Create a project

\`POST /v1/projects\`

\`\`\`json
{ "name": "Website redesign" }
\`\`\`
`;

export const apiReference: Template = {
  id: 'api-reference',
  title: 'API reference',
  description: 'Docs for an HTTP API: introduction, authentication, errors, pagination, rate limits and endpoints.',
  slots: {
    openapi: { kinds: ['openapi', 'url'], description: 'The API specification: added as a link page "OpenAPI specification" under Reference.' },
    status: { kinds: ['url'], description: 'The status page of the API: added as a link page under Reference.' },
  },
  pages: (refs) => [
    {
      type: 'group',
      title: 'Getting started',
      pages: [
        { type: 'document', title: 'Introduction', description: 'Base URL, conventions and a first request.', icon: 'rocket', markdown: introduction },
        { type: 'document', title: 'Authentication', description: 'API tokens and their scopes.', icon: 'key', markdown: authentication },
      ],
    },
    {
      type: 'group',
      title: 'Reference',
      pages: [
        { type: 'document', title: 'Errors', description: 'Status codes and the error shape.', markdown: errors },
        { type: 'document', title: 'Pagination', description: 'Reading lists page by page.', markdown: pagination },
        { type: 'document', title: 'Rate limits', description: 'How many requests a token may make.', markdown: rateLimits },
        { type: 'document', title: 'Projects', description: 'An example resource page.', markdown: endpoints },
        ...(refs.openapi ? [{ type: 'link' as const, title: 'OpenAPI specification', target: refs.openapi }] : []),
        ...(refs.status ? [{ type: 'link' as const, title: 'API status', target: refs.status }] : []),
      ],
    },
  ],
};
