import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { ApiTokenView, MeView, MyWorkspace, WebSessionView } from '../api/types';
import { useLive } from '../live/use-live';
import { BASE } from '../router';
import { ConfirmByTyping } from './ConfirmByTyping';
import { Field, fieldError } from './Field';
import { MembersPanel } from './MembersPanel';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/** A hosted account: its workspaces (and switching between them), the workspace's API tokens and people, the person's web sessions. */
export function AccountView({ me }: { me: MeView }) {
  return (
    <section aria-labelledby="account-heading">
      <h1 id="account-heading">Account</h1>
      <p>
        Signed in as <strong>{me.account?.email}</strong>
        {me.workspace && (
          <>
            {' '}
            in <strong>{me.workspace.name}</strong> ({me.workspace.role ?? 'member'}, {me.workspace.plan} plan)
          </>
        )}
        .
      </p>
      <WorkspacesPanel />
      <TokensPanel />
      <MembersPanel myRole={me.workspace?.role ?? null} />
      <SessionsPanel />
      <section class="panel" aria-labelledby="my-data-heading">
        <h2 id="my-data-heading">Your data</h2>
        <p>
          <a class="button" href="/export/my-data" download>
            Export my data (JSON)
          </a>
        </p>
        <h3>Delete your account</h3>
        <p>Your account, its sign-ins and tokens go for good, with every workspace you own alone and all its data. There is no undo.</p>
        <ConfirmByTyping
          id="delete-account-word"
          word="DELETE"
          label="Type DELETE to confirm"
          button="Delete my account"
          onConfirm={async () => {
            await api('POST', '/account/delete', { confirmation: 'DELETE' });
            location.assign('/');
          }}
        />
      </section>
    </section>
  );
}

function WorkspacesPanel() {
  const list = useLive(
    'me:workspaces',
    () => api<MyWorkspace[]>('GET', '/me/workspaces'),
    (w) => w,
  );
  const [choice, setChoice] = useState<string>();
  const [error, setError] = useState<string>();
  const current = list.data?.find((w) => w.current);
  const switchTo = async (id: string) => {
    setError(undefined);
    try {
      await api('POST', '/me/workspace', { workspace_id: id });
      // Everything the dashboard shows belongs to the workspace: start again from the projects.
      location.assign(`${BASE}/`);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section class="panel" aria-labelledby="workspaces-heading">
      <h2 id="workspaces-heading">Workspace</h2>
      {list.error && <p role="alert">{list.error}</p>}
      {list.data && list.data.length < 2 && <p>You belong to one workspace{current ? `: ${current.name}` : ''}.</p>}
      {list.data && list.data.length >= 2 && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (choice && choice !== current?.id) void switchTo(choice);
          }}
        >
          <label for="workspace-switcher">Work in</label>
          <div class="actions">
            <select id="workspace-switcher" value={choice ?? current?.id} onChange={(e) => setChoice(e.currentTarget.value)}>
              {list.data.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name} ({w.role})
                </option>
              ))}
            </select>
            <button type="submit">Switch workspace</button>
          </div>
          {error && <p role="alert">{error}</p>}
        </form>
      )}
    </section>
  );
}

function TokensPanel() {
  const tokens = useLive(
    'auth:tokens',
    () => api<ApiTokenView[]>('GET', '/auth/tokens'),
    (t) => t,
    (frame) => frame.event === 'tokens_changed',
  );
  const [label, setLabel] = useState('');
  const [scope, setScope] = useState<'full' | 'read'>('full');
  const [days, setDays] = useState('');
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<ApiTokenView & { token: string }>();
  const [copied, setCopied] = useState(false);
  const create = async () => {
    setError(undefined);
    setCopied(false);
    try {
      const made = await api<ApiTokenView & { token: string }>('POST', '/auth/tokens', { label, scope, ...(days.trim() ? { expires_in_days: Number(days) } : {}) });
      const { token: _secret, ...listed } = made;
      tokens.set((list) => [listed, ...list]);
      setCreated(made);
      setLabel('');
      setDays('');
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const revoke = async (id: string) => {
    setError(undefined);
    try {
      await api('DELETE', `/auth/tokens/${encodeURIComponent(id)}`);
      tokens.set((list) => list.filter((t) => t.id !== id));
      if (created?.id === id) setCreated(undefined);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const copy = async (text: string) => {
    await navigator.clipboard.writeText(text);
    setCopied(true);
  };
  const live = tokens.data?.filter((t) => !t.revoked);
  return (
    <section class="panel" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">API tokens</h2>
      <p>
        A token lets an assistant or a script act in this workspace (MCP and REST, <code>Authorization: Bearer …</code>).
      </p>
      {tokens.error && <p role="alert">{tokens.error}</p>}
      {created && (
        <div class="new-token" role="status">
          <p>
            <strong>New token “{created.label}”.</strong> Copy it now: it is not shown again.
          </p>
          <p class="actions">
            <code id="new-token-value">{created.token}</code>
            <button type="button" class="secondary" onClick={() => void copy(created.token)} aria-describedby="new-token-value">
              {copied ? 'Copied' : 'Copy'}
            </button>
          </p>
        </div>
      )}
      {live && live.length === 0 && <p>No token yet.</p>}
      {live && live.length > 0 && (
        <ul class="cards" aria-label="API tokens">
          {live.map((t) => (
            <li key={t.id}>
              <strong>{t.label}</strong>
              <small>
                <code>{t.prefix}…</code> · {t.scope} · created {when(t.created_at)}
                {t.created_by ? ` by ${t.created_by}` : ''} · last used {when(t.last_used_at)} · expires {t.expires_at ? when(t.expires_at) : 'never'}
              </small>
              <div class="actions">
                <button type="button" class="secondary" onClick={() => void revoke(t.id)} aria-label={`Revoke token ${t.label}`}>
                  Revoke
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <form
        noValidate
        aria-label="New API token"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <h3>New token</h3>
        <Field id="token-label" label="What it is for" error={fieldError(error, 'label')}>
          {(props) => <input {...props} value={label} onInput={(e) => setLabel(e.currentTarget.value)} />}
        </Field>
        <Field id="token-scope" label="It may">
          {(props) => (
            <select {...props} value={scope} onChange={(e) => setScope(e.currentTarget.value as 'full' | 'read')}>
              <option value="full">do everything the workspace may</option>
              <option value="read">only read</option>
            </select>
          )}
        </Field>
        <Field id="token-days" label="Expires after (days; empty: never)" error={fieldError(error, 'expires_in_days')}>
          {(props) => <input {...props} type="number" inputMode="numeric" value={days} onInput={(e) => setDays(e.currentTarget.value)} />}
        </Field>
        {error && !fieldError(error, 'label') && !fieldError(error, 'expires_in_days') && <p role="alert">{error}</p>}
        <div class="actions">
          <button type="submit">Create token</button>
        </div>
      </form>
    </section>
  );
}

function SessionsPanel() {
  const sessions = useLive(
    'account:sessions',
    () => api<WebSessionView[]>('GET', '/account/sessions'),
    (s) => s,
    // A sign-in or sign-out of this person anywhere (another browser, another workspace).
    (frame) => frame.event === 'web_sessions_changed',
  );
  const [error, setError] = useState<string>();
  const revoke = async (s: WebSessionView) => {
    setError(undefined);
    try {
      await api('POST', `/account/sessions/${encodeURIComponent(s.id)}/revoke`);
      if (s.current) return location.assign('/');
      sessions.set((list) => list.filter((x) => x.id !== s.id));
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section class="panel" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Where you are signed in</h2>
      {(sessions.error || error) && <p role="alert">{sessions.error ?? error}</p>}
      {sessions.data && (
        <ul class="cards" aria-label="Web sessions">
          {sessions.data.map((s) => (
            <li key={s.id}>
              <strong>
                {s.user_agent ?? 'Unknown browser'}
                {s.current ? ' (this browser)' : ''}
              </strong>
              <small>
                via {s.provider} · signed in {when(s.created_at)} · last seen {when(s.last_seen_at)} · until {when(s.expires_at)}
              </small>
              <div class="actions">
                <button
                  type="button"
                  class="secondary"
                  onClick={() => void revoke(s)}
                  aria-label={s.current ? 'Sign out this browser' : `Revoke the session from ${when(s.created_at)}`}
                >
                  {s.current ? 'Sign out' : 'Revoke'}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
