import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { InvitedMember, MemberView } from '../api/types';
import { useLive } from '../live/use-live';
import { Field, fieldError } from './Field';

const ROLES: MemberView['role'][] = ['owner', 'admin', 'member'];
const CODEHOST: MemberView['codehost_access'][] = ['none', 'read', 'write'];

/** The workspace's people: members and pending invitations, roles changed in place, invitations sent and sent again. Refusals (a member may not invite an owner...) come from Baton and are shown. */
export function MembersPanel({ myRole }: { myRole: string | null }) {
  const members = useLive(
    'workspace:members',
    () => api<MemberView[]>('GET', '/workspace/members'),
    (m) => m,
    (frame) => frame.event === 'members_changed',
  );
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const act = async (work: () => Promise<string | void>) => {
    setError(undefined);
    setNotice(undefined);
    try {
      const said = await work();
      if (said) setNotice(said);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const replace = (m: MemberView) => members.set((list) => list.map((x) => (x.id === m.id ? m : x)));
  const update = (m: MemberView, patch: Partial<Pick<MemberView, 'role' | 'codehost_access'>>) =>
    act(async () => replace(await api<MemberView>('PATCH', `/workspace/members/${encodeURIComponent(m.id)}`, patch)));
  const remove = (m: MemberView) =>
    act(async () => {
      await api('DELETE', `/workspace/members/${encodeURIComponent(m.id)}`);
      members.set((list) => list.filter((x) => x.id !== m.id));
      return `${m.email} removed.`;
    });
  const resend = (m: MemberView) =>
    act(async () => {
      const sent = await api<InvitedMember>('POST', `/workspace/invite/${encodeURIComponent(m.id)}/resend`);
      replace(sent);
      return `Invitation sent again to ${m.email} (${sent.invite_email}).`;
    });
  return (
    <section class="panel" aria-labelledby="members-heading">
      <h2 id="members-heading">People</h2>
      {members.error && <p role="alert">{members.error}</p>}
      {error && <p role="alert">{error}</p>}
      {notice && <p role="status">{notice}</p>}
      {members.data && (
        <ul class="cards" aria-label="Members and invitations">
          {members.data.map((m) => (
            <li key={m.id}>
              <strong>{m.name ? `${m.name} <${m.email}>` : m.email}</strong>
              <small>
                {m.status === 'invited'
                  ? `invited, the link works until ${new Date(m.invite_expires_at ?? '').toLocaleString()}`
                  : `joined ${new Date(m.joined_at ?? '').toLocaleString()}`}
              </small>
              <div class="actions">
                <label class="inline">
                  Role{' '}
                  <select value={m.role} onChange={(e) => void update(m, { role: e.currentTarget.value as MemberView['role'] })} aria-label={`Role of ${m.email}`}>
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                </label>
                <label class="inline">
                  Code host{' '}
                  <select
                    value={m.codehost_access}
                    onChange={(e) => void update(m, { codehost_access: e.currentTarget.value as MemberView['codehost_access'] })}
                    aria-label={`Code-host access of ${m.email}`}
                  >
                    {CODEHOST.map((c) => (
                      <option key={c} value={c}>
                        {c}
                      </option>
                    ))}
                  </select>
                </label>
                {m.status === 'invited' && (
                  <button type="button" class="secondary" onClick={() => void resend(m)} aria-label={`Send again the invitation to ${m.email}`}>
                    Send again
                  </button>
                )}
                <button type="button" class="secondary" onClick={() => void remove(m)} aria-label={`Remove ${m.email}`}>
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {myRole !== 'member' && <InviteForm onInvited={(m) => members.set((list) => [...list.filter((x) => x.id !== m.id), m])} />}
    </section>
  );
}

function InviteForm({ onInvited }: { onInvited: (m: MemberView) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberView['role']>('member');
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState<string>();
  const invite = async () => {
    setError(undefined);
    setSent(undefined);
    try {
      const invited = await api<InvitedMember>('POST', '/workspace/invite', { email, role });
      const { invite_email, ...member } = invited;
      onInvited(member);
      setSent(`Invitation for ${member.email}: e-mail ${invite_email}.`);
      setEmail('');
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <form
      noValidate
      aria-label="Invite someone"
      onSubmit={(e) => {
        e.preventDefault();
        void invite();
      }}
    >
      <h3>Invite someone</h3>
      <Field id="invite-email" label="E-mail address" error={fieldError(error, 'email')}>
        {(props) => <input {...props} type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />}
      </Field>
      <Field id="invite-role" label="Role" error={fieldError(error, 'role')}>
        {(props) => (
          <select {...props} value={role} onChange={(e) => setRole(e.currentTarget.value as MemberView['role'])}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        )}
      </Field>
      {error && !fieldError(error, 'email') && !fieldError(error, 'role') && <p role="alert">{error}</p>}
      {sent && <p role="status">{sent}</p>}
      <div class="actions">
        <button type="submit">Send invitation</button>
      </div>
    </form>
  );
}
