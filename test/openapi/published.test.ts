import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { browse, createSite, type SiteHandle } from '../published/support.ts';
import { drainJobs, fixture } from './helpers.ts';

const PAGE = `# Pets API

Everything about pets.

{% openapi-operation spec="petstore" path="/pets" method="get" %}
[OpenAPI petstore](https://example.com/petstore.yaml)
{% endopenapi-operation %}

{% openapi-operation spec="petstore" path="/pets" method="post" %}
[OpenAPI petstore](https://example.com/petstore.yaml)
{% endopenapi-operation %}

{% openapi-operation spec="petstore" path="/pets/{petId}" method="delete" %}
[OpenAPI petstore](https://example.com/petstore.yaml)
{% endopenapi-operation %}

{% openapi-schemas spec="petstore" schemas="Pet" grouped="false" %}
[OpenAPI petstore](https://example.com/petstore.yaml)
{% endopenapi-schemas %}
`;

const OTHERS = `# More

{% openapi-webhook spec="events" name="newInvoice" method="post" %}
[OpenAPI events](https://example.com/events.yaml)
{% endopenapi-webhook %}

{% swagger src="https://legacy.example.com/swagger.json" path="/orders/{orderId}" method="get" %}
[https://legacy.example.com/swagger.json](https://legacy.example.com/swagger.json)
{% endswagger %}

{% openapi-operation spec="missing" path="/x" method="get" %}
[OpenAPI missing](https://example.com/missing.yaml)
{% endopenapi-operation %}

{% openapi-operation spec="petstore" path="/internal/stats" method="get" %}
[OpenAPI petstore](https://example.com/petstore.yaml)
{% endopenapi-operation %}

{% openapi-operation spec="petstore" path="/nope" method="get" %}
[OpenAPI petstore](https://example.com/petstore.yaml)
{% endopenapi-operation %}
`;

/** The API reference on a published site: operations, schemas, webhooks, samples, notices, and re-rendering on a new version. */
for (const dialect of dialects) {
  describe(`OpenAPI references on published sites [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let site: SiteHandle;
    const base = () => `/v1/orgs/${world.organizationId}/openapi`;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      await world.admin.api.post(base(), { slug: 'petstore', source: { text: fixture('petstore-3.0.yaml') } });
      await world.admin.api.post(base(), { slug: 'events', source: { text: fixture('events-3.1.yaml') } });
      await drainJobs(t);
      // The legacy block names its spec by URL: a spec of the organization fetched from there (its row says so).
      await world.admin.api.post(base(), { slug: 'legacy', source: { text: fixture('swagger-2.0.json') } });
      await drainJobs(t);
      await t.ctx.db.updateTable('openapi_specs').set({ source_url: 'https://legacy.example.com/swagger.json' }).where('slug', '=', 'legacy').execute();
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [
        { type: 'document', title: 'Pets API', markdown: PAGE },
        { type: 'document', title: 'More', markdown: OTHERS },
      ], { title: 'API' });
      site = await createSite(world.admin, world.organizationId, { title: 'Developers', visibility: 'public', spaces: [spaceId] });
    });
    after(() => t.close());

    it('draws operations with parameters, bodies, responses, schemas, examples, samples and anchors', async () => {
      const page = await browse(t.app, site.root);
      assert.equal(page.status, 200);
      const html = page.body;
      assert.doesNotMatch(html, /is not available yet/);
      assert.match(html, /<section class="openapi-operation" id="get-pets">/);
      assert.match(html, /<span class="openapi-method openapi-method-get">GET<\/span> <code class="openapi-path">https:\/\/petstore\.example\.com\/v1\/pets<\/code>/);
      assert.match(html, /List pets/);
      assert.match(html, /<strong>newest first<\/strong>/, 'the description is Markdown');
      assert.match(html, /Query parameters[\s\S]*<code class="openapi-name">limit<\/code> <span class="openapi-type">integer · int32<\/span>[\s\S]*≤ 100[\s\S]*Default: <code>20<\/code>/);
      assert.match(html, /Header parameters[\s\S]*X-Request-Id/);
      assert.match(html, /<span class="openapi-status">200<\/span> A paged array of pets/);
      assert.match(html, /array of Pet/);
      assert.match(html, /<code class="openapi-name">name<\/code> <span class="openapi-type">string<\/span> <span class="openapi-required">required<\/span>/);
      assert.match(html, /Pet \(recursive: see above\)/, 'a $ref cycle stops where it repeats');
      assert.match(html, /Possible values: <ul><li><code>dog<\/code>/);
      assert.match(html, /Request body <span class="openapi-required">required<\/span>/);
      assert.match(html, /API key in the header <code>X-API-Key<\/code>/);
      assert.match(html, /curl -L \\\n  --request GET \\\n  --url &#39;https:\/\/petstore\.example\.com\/v1\/pets\?limit=20&#39;|curl -L \\\n  --request GET \\\n  --url 'https:\/\/petstore\.example\.com\/v1\/pets\?limit=20'/);
      assert.match(html, /requests\.post\(/);
      assert.match(html, /await fetch\(/);
      assert.match(html, /X-API-Key: YOUR_API_KEY/);
      assert.match(html, /&quot;name&quot;: &quot;Rex&quot;/, 'examples from the schema');
      assert.match(html, /<span class="openapi-badge openapi-deprecated">Deprecated<\/span>/);
      assert.match(html, /<section class="openapi-schema" id="schema-pet">/);
    });

    it('draws webhooks and legacy blocks, hides internal operations, and names what cannot be shown', async () => {
      const html = (await browse(t.app, `${site.root}/more`)).body;
      assert.match(html, /A new invoice was issued/);
      assert.match(html, /<span class="openapi-badge openapi-stability openapi-stability-beta">beta<\/span>|id="webhook-newinvoice-post"/);
      assert.match(html, /Find an order by id/, 'the Swagger 2.0 legacy block, upgraded');
      assert.match(html, /orderId<\/code> <span class="openapi-type">integer<\/span> <span class="openapi-required">required<\/span>/);
      assert.match(html, /no OpenAPI specification &quot;missing&quot; exists in this organization|no OpenAPI specification "missing" exists in this organization/);
      assert.match(html, /has no such operation/);
      assert.doesNotMatch(html, /Internal statistics/);
    });

    it('lists the operations of the page\'s OpenAPI blocks under "On this page", in order, with their anchors', async () => {
      const outlineOf = (html: string) => {
        const aside = /<aside class="page-outline">([\s\S]*?)<\/aside>/.exec(html);
        assert.ok(aside, 'the page has an outline');
        return [...aside[1].matchAll(/<li class="depth-(\d)"><a href="#([^"]+)">([^<]*)<\/a><\/li>/g)].map((m) => `${m[1]} #${m[2]} ${m[3]}`);
      };
      const pets = outlineOf((await browse(t.app, site.root)).body);
      assert.deepEqual(pets.filter((entry) => !entry.includes('#pets-api')), ['2 #get-pets List pets', '2 #post-pets Create a pet', '2 #delete-pets-petid Remove a pet']);
      const more = outlineOf((await browse(t.app, `${site.root}/more`)).body);
      assert.ok(more.some((entry) => entry.endsWith('#webhook-newinvoice-post New invoice') || entry.includes('#webhook-newinvoice-post')), more.join('\n'));
      assert.ok(more.some((entry) => entry.includes('#get-orders-orderid Find an order by id')), more.join('\n'));
      assert.ok(!more.some((entry) => /Internal statistics|#get-x|#get-nope/.test(entry)), 'hidden and missing operations are not listed');
    });

    it('finds operations in the site search, linking to their anchors', async () => {
      const json = JSON.parse((await browse(t.app, `${site.root}/~search.json?q=${encodeURIComponent('newest first')}`)).body);
      const hit = json.results.find((r: { title: string }) => r.title === 'Pets API');
      assert.ok(hit, JSON.stringify(json));
      assert.ok(hit.sections.some((s: { url: string; title: string }) => s.url.endsWith('#get-pets') && s.title === 'List pets'), JSON.stringify(hit));
      const invoice = JSON.parse((await browse(t.app, `${site.root}/~search.json?q=invoice`)).body);
      assert.ok(invoice.results.some((r: { sections: Array<{ url: string }> }) => r.sections.some((s) => s.url.endsWith('#webhook-newinvoice-post'))), JSON.stringify(invoice));
      const order = JSON.parse((await browse(t.app, `${site.root}/~search.json?q=order`)).body);
      assert.ok(order.results.some((r: { sections: Array<{ url: string }> }) => r.sections.some((s) => s.url.endsWith('#get-orders-orderid'))), JSON.stringify(order));
      const internal = JSON.parse((await browse(t.app, `${site.root}/~search.json?q=statistics`)).body);
      assert.deepEqual(internal.results, [], 'internal operations are not found');
      const html = (await browse(t.app, `${site.root}/~search?q=pets`)).body;
      assert.match(html, /#get-pets/);
    });

    it('renders the page again when the spec gets a new version', async () => {
      assert.match((await browse(t.app, site.root)).body, /List pets/);
      await world.admin.api.put(`${base()}/petstore`, { source: { text: fixture('petstore-3.0.yaml').replace('summary: List pets', 'summary: List every pet') } });
      await drainJobs(t);
      t.clock.advance(5000);
      const html = (await browse(t.app, site.root)).body;
      assert.match(html, /List every pet/);
    });
  });
}
