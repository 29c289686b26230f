import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { all, call } from './api.ts';
import { ActionError, SecretOnce, Section, useAction, when } from './ui.tsx';

export const WEBHOOK_EVENTS = [
  'space.created', 'space.updated', 'space.deleted', 'change_request.opened', 'change_request.reviewed', 'change_request.merged',
  'comment.posted', 'site.published', 'git_sync.started', 'git_sync.completed', 'translation.completed', 'openapi_spec.processed',
] as const;

interface Webhook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  createdAt: string;
}

interface Delivery {
  id: string;
  event: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  responseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

/** The organization's webhooks: create (events, secret shown once), rotate the secret, delete, and each one's deliveries. */
export function WebhooksSection(props: { organizationId: string }) {
  const key = `admin:${props.organizationId}:webhooks`;
  const hooks = useQuery(key, () => all<Webhook>('listWebhooks', { organizationId: props.organizationId }));
  const [target, setTarget] = useState('');
  const [events, setEvents] = useState<string[]>(['change_request.merged']);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const action = useAction();
  const create = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const created = await call<Webhook & { secret: string }>('createWebhook', { organizationId: props.organizationId }, { url: target.trim(), events });
      setSecret(created.secret);
      setTarget('');
      setOpen(created.id);
      invalidate(key);
    });
  };
  const rotate = (hook: Webhook) =>
    action.run(async () => {
      const rotated = await call<{ secret: string }>('rotateWebhookSecret', { organizationId: props.organizationId, webhookId: hook.id });
      setSecret(rotated.secret);
    });
  const remove = (hook: Webhook) => {
    if (!window.confirm(`Delete the webhook to ${hook.url}?`)) return;
    void action.run(async () => {
      await call('deleteWebhook', { organizationId: props.organizationId, webhookId: hook.id });
      invalidate(key);
    });
  };
  const toggle = (name: string, on: boolean) => setEvents(on ? [...events, name] : events.filter((item) => item !== name));
  return (
    <>
      <p class="lead">Quire POSTs a JSON message to each address when the chosen events happen, signed with the webhook's secret (header <code>x-quire-signature</code>).</p>
      <form class="form" onSubmit={create}>
        <label>
          Address to call
          <input type="url" value={target} required placeholder="https://example.com/quire-hook" onInput={(event) => setTarget((event.currentTarget as HTMLInputElement).value)} />
        </label>
        <fieldset class="checks">
          <legend>Events</legend>
          {WEBHOOK_EVENTS.map((name) => (
            <label key={name}>
              <input type="checkbox" checked={events.includes(name)} onChange={(event) => toggle(name, (event.currentTarget as HTMLInputElement).checked)} />
              {name}
            </label>
          ))}
        </fieldset>
        <div><button type="submit" class="button primary" disabled={action.busy || events.length === 0 || !target.trim()}>Create webhook</button></div>
      </form>
      <ActionError error={action.error} />
      {secret && <SecretOnce id="webhook-secret" label="The webhook's signing secret" value={secret} onDone={() => setSecret(null)} />}
      {hooks.error && <ErrorNote error={hooks.error} />}
      {hooks.data && hooks.data.length === 0 && <p class="empty">No webhooks yet: give an address and the events to send, then <strong>Create webhook</strong>.</p>}
      {hooks.data?.map((hook) => (
        <div key={hook.id} class="panel">
          <h2 id={`hook-${hook.id}`}>{hook.url}</h2>
          <p class="meta">{hook.active ? 'Active' : 'Paused'} · {hook.events.join(', ')} · created {when(hook.createdAt)}</p>
          <div class="row">
            <button type="button" class="button" aria-expanded={open === hook.id} onClick={() => setOpen(open === hook.id ? null : hook.id)}>{open === hook.id ? 'Hide deliveries' : 'Deliveries'}</button>
            <button type="button" class="button" onClick={() => rotate(hook)} disabled={action.busy}>New secret</button>
            <button type="button" class="button danger" onClick={() => remove(hook)} disabled={action.busy}>Delete</button>
          </div>
          {open === hook.id && <Deliveries organizationId={props.organizationId} hook={hook} />}
        </div>
      ))}
    </>
  );
}

function Deliveries(props: { organizationId: string; hook: Webhook }) {
  const key = `admin:${props.organizationId}:webhooks:${props.hook.id}:deliveries`;
  const action = useAction();
  const again = (delivery: Delivery) =>
    action.run(async () => {
      await call('redeliverWebhookDelivery', { organizationId: props.organizationId, webhookId: props.hook.id, deliveryId: delivery.id });
      invalidate(key);
    });
  const deliveries = useQuery(key, () => call<{ items: Delivery[] }>('listWebhookDeliveries', { organizationId: props.organizationId, webhookId: props.hook.id }, undefined, { limit: '50' }));
  return (
    <Section id={`deliveries-${props.hook.id}`} title="Deliveries">
      <button type="button" class="button" onClick={() => invalidate(key)}>Refresh</button>
      <ActionError error={action.error} />
      {deliveries.error && <ErrorNote error={deliveries.error} />}
      {deliveries.data && deliveries.data.items.length === 0 && <p class="empty">Nothing was sent yet: it will be when one of the events happens.</p>}
      {deliveries.data && deliveries.data.items.length > 0 && (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Deliveries">
          <table class="data-table">
            <caption class="visually-hidden">Deliveries to {props.hook.url}</caption>
            <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Response</th><th scope="col">Attempts</th><th scope="col">Next attempt</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {deliveries.data.items.map((delivery) => (
                <tr key={delivery.id}>
                  <td>{when(delivery.createdAt)}</td>
                  <td>{delivery.event}</td>
                  <td class={`status-${delivery.status}`}>{delivery.status}</td>
                  <td>{delivery.responseStatus ?? '—'}{delivery.lastError ? ` · ${delivery.lastError}` : ''}</td>
                  <td>{delivery.attempts}</td>
                  <td>{when(delivery.nextAttemptAt)}</td>
                  <td class="actions"><button type="button" class="button" onClick={() => again(delivery)} disabled={action.busy}>Redeliver</button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
