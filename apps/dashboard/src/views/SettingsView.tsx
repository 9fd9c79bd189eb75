import { useState } from 'preact/hooks';
import { api, ApiError } from '../api/client';
import type { NotifySettingsView, ProjectSettings, ProjectView, UpdateProjectSettingsDto } from '../api/types';
import { useLive } from '../live/use-live';
import { navigate, paths } from '../router';
import { ConfirmByTyping } from './ConfirmByTyping';
import { Field, fieldError } from './Field';

const BOOLEANS = [
  ['hitl_auto_answer', 'Answer questions automatically (assistants do not wait for a person)'],
  ['auto_worktrees', 'Give each worker its own git worktree'],
  ['require_merge_approval', 'A person approves every merge'],
  ['code_intel_enabled', 'Code intelligence'],
] as const;

/** The text a number field holds, and back: an empty field means "not set here". */
const numberText = (n: number | undefined) => (n === undefined ? '' : String(n));
const textNumber = (s: string): number | undefined => (s.trim() === '' ? undefined : Number(s));

/** A project's settings and where its notifications go, each form saved on its own; the server's refusals are shown beside the field they name. */
export function SettingsView({ projectId, project }: { projectId: string; project?: ProjectView }) {
  const base = `/projects/${encodeURIComponent(projectId)}`;
  const settings = useLive(
    `settings:${projectId}`,
    () => api<ProjectSettings>('GET', `${base}/settings`),
    (s, frame) => (frame.event === 'project_settings_changed' && frame.data.project_id === projectId ? (frame.data.settings as ProjectSettings) : s),
  );
  const notify = useLive(
    `ntfy:${projectId}`,
    () => api<NotifySettingsView>('GET', `${base}/ntfy`),
    (n) => n,
  );
  // Kept here: a form starts again from the stored values whenever they change (its own save included).
  const [settingsNotice, setSettingsNotice] = useState<string>();
  const [notifyNotice, setNotifyNotice] = useState<string>();
  return (
    <section aria-labelledby="settings-heading">
      <h1 id="settings-heading">Settings{project ? ` of ${project.name}` : ''}</h1>
      {(settings.error || notify.error) && <p role="alert">Could not load the settings: {settings.error ?? notify.error}</p>}
      {settings.data ? (
        <ProjectSettingsForm
          key={JSON.stringify(settings.data)}
          base={base}
          current={settings.data}
          onSaved={(s) => settings.set(() => s)}
          saved={settingsNotice}
          setSaved={setSettingsNotice}
        />
      ) : (
        !settings.error && <p>Loading…</p>
      )}
      {notify.data && (
        <NotifyForm key={JSON.stringify(notify.data)} base={base} current={notify.data} onSaved={(n) => notify.set(() => n)} result={notifyNotice} setResult={setNotifyNotice} />
      )}
      {project && (
        <section class="panel" aria-labelledby="delete-project-heading">
          <h2 id="delete-project-heading">Delete this project</h2>
          <p>Everything in it goes for good: its items, notes, decisions, questions, messages and history. There is no undo.</p>
          <ConfirmByTyping
            id="delete-project-name"
            word={project.name}
            label={`Type the project's name, ${project.name}, to confirm`}
            button="Delete the project"
            onConfirm={async () => {
              await api('DELETE', base);
              navigate(paths.projects());
            }}
          />
        </section>
      )}
    </section>
  );
}

/** What the person said, as the form holds it. */
type FormState = ReturnType<typeof formOf>;

function formOf(current: ProjectSettings) {
  return {
    max_pinned_decisions: String(current.max_pinned_decisions),
    execution_mode: current.execution_mode,
    flags: Object.fromEntries(BOOLEANS.map(([name]) => [name, current[name]])) as Record<(typeof BOOLEANS)[number][0], boolean>,
    repo_path: current.executor_config.repo_path ?? '',
    test_command: current.executor_config.test_command ?? '',
    test_min: numberText(current.executor_config.test_min),
    max_parallel: numberText(current.executor_config.max_parallel),
    case_insensitive_paths: current.executor_config.case_insensitive_paths ?? false,
    override_reason: '',
  };
}

/**
 * The PATCH body: only what the person changed, so that a value left alone keeps coming from
 * where it came from (the workspace, a default); an emptied number stops setting it at the project.
 */
function changes(current: ProjectSettings, form: FormState): UpdateProjectSettingsDto {
  const body: UpdateProjectSettingsDto = {};
  const before = formOf(current);
  if (form.max_pinned_decisions !== before.max_pinned_decisions) body.max_pinned_decisions = textNumber(form.max_pinned_decisions) ?? null;
  if (form.execution_mode !== before.execution_mode) body.execution_mode = form.execution_mode;
  for (const [name] of BOOLEANS) if (form.flags[name] !== before.flags[name]) body[name] = form.flags[name];
  const executor = ['repo_path', 'test_command', 'test_min', 'max_parallel', 'case_insensitive_paths'] as const;
  if (executor.some((key) => form[key] !== before[key])) {
    body.executor_config = {
      ...(form.repo_path.trim() ? { repo_path: form.repo_path.trim() } : {}),
      ...(form.test_command.trim() ? { test_command: form.test_command.trim() } : {}),
      ...(textNumber(form.test_min) !== undefined ? { test_min: textNumber(form.test_min) } : {}),
      ...(textNumber(form.max_parallel) !== undefined ? { max_parallel: textNumber(form.max_parallel) } : {}),
      ...(form.case_insensitive_paths ? { case_insensitive_paths: true } : {}),
    };
  }
  if (form.override_reason.trim()) body.override_reason = form.override_reason.trim();
  return body;
}

function ProjectSettingsForm({
  base,
  current,
  onSaved,
  saved,
  setSaved,
}: {
  base: string;
  current: ProjectSettings;
  onSaved: (s: ProjectSettings) => void;
  saved?: string;
  setSaved: (notice?: string) => void;
}) {
  const [form, setForm] = useState(() => formOf(current));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const edit = (patch: Partial<typeof form>) => {
    setForm({ ...form, ...patch });
    setSaved(undefined);
  };
  const save = async () => {
    const body = changes(current, form);
    if (Object.keys(body).length === 0) return setSaved('Nothing changed.');
    setBusy(true);
    setError(undefined);
    try {
      onSaved(await api<ProjectSettings>('PATCH', `${base}/settings`, body));
      setSaved('Saved.');
    } catch (e) {
      setError((e as ApiError).message);
    } finally {
      setBusy(false);
    }
  };
  const err = (field: string) => fieldError(error, field);
  return (
    <form
      class="panel"
      noValidate
      aria-labelledby="project-settings-heading"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id="project-settings-heading">Project</h2>
      <Field id="max_pinned_decisions" label="Most pinned decisions" error={err('max_pinned_decisions')}>
        {(props) => <input {...props} type="number" inputMode="numeric" value={form.max_pinned_decisions} onInput={(e) => edit({ max_pinned_decisions: e.currentTarget.value })} />}
      </Field>
      <Field id="execution_mode" label="Execution mode" error={err('execution_mode')}>
        {(props) => (
          <select {...props} value={form.execution_mode} onChange={(e) => edit({ execution_mode: e.currentTarget.value as ProjectSettings['execution_mode'] })}>
            <option value="interactive">interactive</option>
            <option value="autonomous">autonomous</option>
          </select>
        )}
      </Field>
      <fieldset>
        <legend>Behaviour</legend>
        {BOOLEANS.map(([name, label]) => (
          <label key={name} class="check">
            <input type="checkbox" checked={form.flags[name]} onChange={(e) => edit({ flags: { ...form.flags, [name]: e.currentTarget.checked } })} /> {label}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Executor</legend>
        <Field id="repo_path" label="Repository path" error={err('repo_path')}>
          {(props) => <input {...props} value={form.repo_path} onInput={(e) => edit({ repo_path: e.currentTarget.value })} />}
        </Field>
        <Field id="test_command" label="Test command" error={err('test_command')}>
          {(props) => <input {...props} value={form.test_command} onInput={(e) => edit({ test_command: e.currentTarget.value })} />}
        </Field>
        <Field id="test_min" label="Fewest tests a change comes with" error={err('test_min')}>
          {(props) => <input {...props} type="number" inputMode="numeric" value={form.test_min} onInput={(e) => edit({ test_min: e.currentTarget.value })} />}
        </Field>
        <Field id="max_parallel" label="Most workers at once" error={err('max_parallel')}>
          {(props) => <input {...props} type="number" inputMode="numeric" value={form.max_parallel} onInput={(e) => edit({ max_parallel: e.currentTarget.value })} />}
        </Field>
        <label class="check">
          <input type="checkbox" checked={form.case_insensitive_paths} onChange={(e) => edit({ case_insensitive_paths: e.currentTarget.checked })} /> File names ignore case (macOS,
          Windows)
        </label>
      </fieldset>
      <Field id="override_reason" label="Why looser than the workspace allows (only when it is)" error={err('override_reason')}>
        {(props) => <input {...props} value={form.override_reason} onInput={(e) => edit({ override_reason: e.currentTarget.value })} />}
      </Field>
      {error && !BODY_FIELDS.some((f) => err(f)) && <p role="alert">{error}</p>}
      {saved && <p role="status">{saved}</p>}
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save settings
        </button>
      </div>
    </form>
  );
}

const BODY_FIELDS = ['max_pinned_decisions', 'execution_mode', 'repo_path', 'test_command', 'test_min', 'max_parallel', 'override_reason'];

function NotifyForm({
  base,
  current,
  onSaved,
  result,
  setResult,
}: {
  base: string;
  current: NotifySettingsView;
  onSaved: (n: NotifySettingsView) => void;
  result?: string;
  setResult: (notice?: string) => void;
}) {
  const [url, setUrl] = useState(current.notify_url ?? '');
  const [email, setEmail] = useState(current.notify_email ?? '');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    try {
      setResult(await work());
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const save = () =>
    run(async () => {
      onSaved(await api<NotifySettingsView>('PATCH', `${base}/ntfy`, { notify_url: url.trim() || null, notify_email: email.trim() || null }));
      return 'Saved.';
    });
  const test = () =>
    run(async () => {
      const sent = await api<{ url: string; email: string }>('POST', `${base}/notify/test`);
      return `Test sent: URL ${sent.url.replace('_', ' ')}, e-mail ${sent.email.replace('_', ' ')}.`;
    });
  const err = (field: string) => fieldError(error, field);
  return (
    <form
      class="panel"
      noValidate
      aria-labelledby="notify-heading"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id="notify-heading">Notifications</h2>
      <p>When an assistant asks a question, Baton posts it to this URL and e-mails it, with a link to the project's questions.</p>
      <Field id="notify_url" label="Notify URL (receives a JSON POST)" error={err('notify_url')}>
        {(props) => <input {...props} type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}
      </Field>
      <Field id="notify_email" label="Notify e-mail" error={err('notify_email')}>
        {(props) => <input {...props} type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />}
      </Field>
      {error && !err('notify_url') && !err('notify_email') && <p role="alert">{error}</p>}
      {result && <p role="status">{result}</p>}
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save notifications
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={() => void test()}>
          Send a test
        </button>
      </div>
    </form>
  );
}
