/**
 * What the reference pages of a specification will hold, from its bundled description: one entry per
 * operation, grouped by tag, with its parameters and responses. The published site renders the full pages.
 */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  method: string;
  path: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters: Array<{ name: string; in: string; required?: boolean; description?: string }>;
  responses: Array<{ status: string; description?: string }>;
}

type Json = Record<string, unknown>;

function object(value: unknown): Json {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function operationsOf(spec: unknown): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(object(object(spec).paths))) {
    const shared = Array.isArray(object(item).parameters) ? (object(item).parameters as unknown[]) : [];
    for (const method of METHODS) {
      const operation = object(object(item)[method]);
      if (!object(item)[method]) continue;
      const parameters = [...shared, ...(Array.isArray(operation.parameters) ? operation.parameters : [])].map(object).filter((parameter) => text(parameter.name));
      out.push({
        method,
        path,
        summary: text(operation.summary),
        description: text(operation.description),
        tags: Array.isArray(operation.tags) ? operation.tags.filter((tag): tag is string => typeof tag === 'string') : undefined,
        parameters: parameters.map((parameter) => ({ name: text(parameter.name)!, in: text(parameter.in) ?? '', required: parameter.required === true, description: text(parameter.description) })),
        responses: Object.entries(object(operation.responses)).map(([status, response]) => ({ status, description: text(object(response).description) })),
      });
    }
  }
  return out;
}

export function ReferencePreview(props: { spec: unknown }) {
  const info = object(object(props.spec).info);
  const operations = operationsOf(props.spec);
  const groups = new Map<string, Operation[]>();
  for (const operation of operations) {
    const tag = operation.tags?.[0] ?? 'Operations';
    groups.set(tag, [...(groups.get(tag) ?? []), operation]);
  }
  return (
    <article class="reference-preview" aria-label="Reference preview">
      <h3>{text(info.title) ?? 'Untitled API'} <span class="meta">{text(info.version)}</span></h3>
      {operations.length === 0 && <p class="empty">This specification describes no operation.</p>}
      {[...groups].map(([tag, items]) => (
        <section key={tag}>
          <h4>{tag}</h4>
          {items.map((operation) => (
            <details key={`${operation.method} ${operation.path}`} class="panel">
              <summary><code>{operation.method.toUpperCase()} {operation.path}</code> {operation.summary}</summary>
              {operation.description && <p>{operation.description}</p>}
              {operation.parameters.length > 0 && (
                <table class="data-table">
                  <caption>Parameters</caption>
                  <thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead>
                  <tbody>
                    {operation.parameters.map((parameter) => (
                      <tr key={`${parameter.in}:${parameter.name}`}><td><code>{parameter.name}</code></td><td>{parameter.in}</td><td>{parameter.required ? 'yes' : 'no'}</td><td>{parameter.description ?? ''}</td></tr>
                    ))}
                  </tbody>
                </table>
              )}
              <ul>
                {operation.responses.map((response) => <li key={response.status}><code>{response.status}</code> {response.description ?? ''}</li>)}
              </ul>
            </details>
          ))}
        </section>
      ))}
    </article>
  );
}
