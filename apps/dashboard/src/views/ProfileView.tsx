import { api } from '../api/client';
import type { EffectiveProfile, FieldResolution, ProjectView } from '../api/types';
import { useLive } from '../live/use-live';

/** How each scope a value can come from is named for people. */
const SOURCE_NAMES: Record<string, string> = {
  default: 'built-in default',
  hosted_default: 'hosted default',
  workspace: 'workspace',
  project: 'project',
  user: 'person',
  session: 'session',
  project_settings: 'project settings',
};

const sourceName = (source: string) => SOURCE_NAMES[source] ?? source;

function shown(value: FieldResolution['value']): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The project's effective profile: every field's value and the layer it comes from, the layers in order, what was ignored and why. */
export function ProfileView({ projectId, project }: { projectId: string; project?: ProjectView }) {
  const profile = useLive(
    `profile:${projectId}`,
    () => api<EffectiveProfile>('GET', `/projects/${encodeURIComponent(projectId)}/effective-profile`),
    (p) => p,
    // A settings change or a layer saved or deleted moves values between layers. A layer of a scope
    // above the project (workspace, user, session) may change any project's profile.
    (frame) =>
      (frame.event === 'project_settings_changed' || frame.event === 'profile_changed') &&
      [projectId, null, undefined].includes((frame.data as { project_id?: string | null }).project_id),
  );
  const p = profile.data;
  const fields = p ? Object.entries(p.fields).sort(([a], [b]) => a.localeCompare(b)) : [];
  return (
    <section aria-labelledby="profile-heading">
      <h1 id="profile-heading">Effective profile{project ? ` of ${project.name}` : ''}</h1>
      {profile.error && <p role="alert">Could not load the profile: {profile.error}</p>}
      {!p && !profile.error && <p>Loading…</p>}
      {p && (
        <>
          <p>
            {p.executable ? 'Assistants can work with this profile.' : 'This profile cannot be executed as it is.'}
            {p.degraded && ` Degraded: ${p.degraded_reasons.join('; ')}.`}
          </p>
          <div class="table-wrap">
            <table>
              <caption>Each field, its value and where the value comes from</caption>
              <thead>
                <tr>
                  <th scope="col">Field</th>
                  <th scope="col">Value</th>
                  <th scope="col">Source</th>
                </tr>
              </thead>
              <tbody>
                {fields.map(([name, f]) => (
                  <tr key={name}>
                    <th scope="row">
                      <code>{name}</code>
                    </th>
                    <td>
                      <code>{shown(f.value)}</code>
                    </td>
                    <td>
                      {sourceName(f.source)}
                      {f.override_reason && <small> (loosened: {f.override_reason})</small>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {p.ignored_loosenings.length > 0 && (
            <section aria-labelledby="ignored-heading">
              <h2 id="ignored-heading">Loosenings ignored</h2>
              <ul>
                {p.ignored_loosenings.map((l) => (
                  <li key={`${l.field}:${l.scope_type}`}>
                    <code>{l.field}</code>: the {sourceName(l.scope_type)} asked for <code>{shown(l.value)}</code> without a reason; the {sourceName(l.kept_from)}'s value stays.
                  </li>
                ))}
              </ul>
            </section>
          )}
          <section aria-labelledby="layers-heading">
            <h2 id="layers-heading">Layers, least specific first</h2>
            {p.layers.length === 0 ? (
              <p>No layer is set: every value is a built-in default.</p>
            ) : (
              <ol>
                {p.layers.map((l) => (
                  <li key={`${l.scope_type}:${l.scope_id}`}>
                    {sourceName(l.scope_type)}{' '}
                    <small>
                      (revision {l.revision}
                      {l.status ? `, ${l.status}` : ''})
                    </small>
                  </li>
                ))}
              </ol>
            )}
          </section>
        </>
      )}
    </section>
  );
}
