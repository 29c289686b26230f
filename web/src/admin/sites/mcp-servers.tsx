import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { CopyField } from '../shared/copy-field.tsx';
import { useAction } from '../shared/use-action.ts';
import { siteKey, sitesApi } from './sites-api.ts';
import type { McpServer, Site } from './types.ts';

/** Headers typed one a line, `Name: value`. */
function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`"${line.trim()}" is not a header: write one a line as Name: value.`);
    const value = line.slice(colon + 1).trim();
    if (!value) throw new Error(`The header ${line.slice(0, colon).trim()} has no value.`);
    headers[line.slice(0, colon).trim()] = value;
  }
  return headers;
}
const headerText = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\n');

/**
 * MCP: the address of the site's own MCP server (to paste into an assistant), and the external MCP servers
 * the site's assistant may call (listSiteMcpServers and its siblings): name, address and headers (often a
 * credential: Quire keeps them sealed and shows them to administrators only), added, changed and removed.
 */
export function McpServersTab(props: { organizationId: string; site: Site }) {
  const { organizationId, site } = props;
  const key = `${siteKey(organizationId, site.id)}mcp-servers`;
  const servers = useQuery(key, () => sitesApi.mcpServers(organizationId, site.id));
  const [editing, setEditing] = useState<string | null>(null);
  const save = async (server: McpServer | null, body: { name: string; url: string; headers: Record<string, string> }) => {
    if (server) await sitesApi.updateMcpServer(organizationId, site.id, server.id, body);
    else await sitesApi.createMcpServer(organizationId, site.id, body);
    invalidate(key);
    setEditing(null);
  };
  const [error, setError] = useState<string | null>(null);
  const remove = async (server: McpServer) => {
    if (!window.confirm(`Remove the MCP server ${server.name}?`)) return;
    setError(null);
    try {
      await sitesApi.deleteMcpServer(organizationId, site.id, server.id);
    } catch (caught) {
      setError((caught as Error).message);
    }
    invalidate(key);
  };
  return (
    <>
      <section class="panel" aria-labelledby="own-mcp-title">
        <h2 id="own-mcp-title">This site's MCP server</h2>
        {site.urls.published
          ? <CopyField id="own-mcp-url" label="Address to paste into an assistant (Claude, Cursor…)" value={`${site.urls.published}/~gitbook/mcp`} />
          : <p class="meta">Publish the site (Overview) to get its MCP server's address.</p>}
      </section>
      <section class="panel mcp-panel" aria-labelledby="mcp-title">
        <h2 id="mcp-title">External MCP servers</h2>
        <p class="meta">Other MCP servers the site's assistant may call (your product's API, a ticket system). Quire stores them; it does not call them itself.</p>
        {servers.error && <ErrorNote error={servers.error} />}
        {servers.data && servers.data.items.length === 0 && <p class="empty">No external MCP server yet.</p>}
        <ul class="mcp-list">
          {servers.data?.items.map((server) => (
            <li key={server.id} class="mcp-row">
              {editing === server.id ? (
                <ServerForm server={server} onSave={(body) => save(server, body)} onCancel={() => setEditing(null)} />
              ) : (
                <div class="copy-row">
                  <strong>{server.name}</strong>
                  <span class="meta">{server.url}{Object.keys(server.headers).length ? ` · ${Object.keys(server.headers).length} header(s)` : ''}</span>
                  <button type="button" class="link-button" onClick={() => setEditing(server.id)}>Edit<span class="visually-hidden"> {server.name}</span></button>
                  <button type="button" class="link-button" onClick={() => void remove(server)}>Remove<span class="visually-hidden"> {server.name}</span></button>
                </div>
              )}
            </li>
          ))}
        </ul>
        {error && <p class="error-note" role="alert">{error}</p>}
        {servers.data && (
          <>
            <h3>Add an MCP server</h3>
            <ServerForm onSave={(body) => save(null, body)} />
          </>
        )}
      </section>
    </>
  );
}

function ServerForm(props: { server?: McpServer; onSave: (body: { name: string; url: string; headers: Record<string, string> }) => Promise<void>; onCancel?: () => void }) {
  const [name, setName] = useState(props.server?.name ?? '');
  const [url, setUrl] = useState(props.server?.url ?? '');
  const [headers, setHeaders] = useState(props.server ? headerText(props.server.headers) : '');
  const { busy, error, run } = useAction();
  const prefix = props.server ? `mcp-${props.server.id}` : 'mcp-new';
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await props.onSave({ name: name.trim(), url: url.trim(), headers: parseHeaders(headers) });
      if (!props.server) { setName(''); setUrl(''); setHeaders(''); }
    });
  };
  return (
    <form class="form" onSubmit={submit} aria-label={props.server ? `Edit ${props.server.name}` : 'New MCP server'}>
      <label for={`${prefix}-name`}>Name</label>
      <input id={`${prefix}-name`} value={name} required maxLength={100} onInput={(event) => setName(event.currentTarget.value)} />
      <label for={`${prefix}-url`}>Server address</label>
      <input id={`${prefix}-url`} type="url" value={url} required placeholder="https://mcp.example.com/sse" onInput={(event) => setUrl(event.currentTarget.value)} />
      <label for={`${prefix}-headers`}>Headers (one a line, Name: value)</label>
      <textarea id={`${prefix}-headers`} class="code-input" rows={2} value={headers} spellcheck={false} placeholder="Authorization: Bearer …" onInput={(event) => setHeaders(event.currentTarget.value)} />
      {error && <p class="error-note" role="alert">{error}</p>}
      <div class="row">
        <button type="submit" class="button primary" disabled={busy}>{props.server ? 'Save server' : 'Add MCP server'}</button>
        {props.onCancel && <button type="button" class="button" onClick={props.onCancel}>Cancel</button>}
      </div>
    </form>
  );
}
