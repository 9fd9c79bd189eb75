import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { GoalMode, GoalVersionView, GoalView as Goal, GoalWithTasksView, ProjectView } from '../api/types';
import type { LiveFrame } from '../live/events';
import { useLive } from '../live/use-live';

interface GoalData {
  goal: Goal;
  history: GoalVersionView[];
}

const HISTORY_SHOWN = 20;

/** The history entry a goal write makes (the server strips AUTO BLOCKS from it; reloads show that exact text). */
const versionOf = (goal: Goal): GoalVersionView => ({
  version: goal.version,
  content: goal.content,
  north_star: goal.north_star,
  sprint: goal.sprint,
  created_at: goal.updated_at ?? '',
});

/** goal_changed replaces the goal; a new version joins the history at the top, a minor write rewrites the top one. */
function applyGoal(projectId: string) {
  return (data: GoalData, frame: LiveFrame): GoalData => {
    const goal = (frame.data as { goal?: Goal }).goal;
    if (frame.event !== 'goal_changed' || !goal || goal.project_id !== projectId) return data;
    const top = data.history[0];
    // A mode switch (or the first mode before any goal) keeps the version and its text: the history stays.
    const sameText = top && top.version === goal.version && top.content === goal.content && top.north_star === goal.north_star && top.sprint === goal.sprint;
    if (goal.version === 0 || sameText) return { ...data, goal };
    const rest = data.history.filter((v) => v.version !== goal.version);
    return { goal, history: [versionOf(goal), ...rest].slice(0, HISTORY_SHOWN) };
  };
}

async function loadGoal(projectId: string): Promise<GoalData> {
  const base = `/projects/${encodeURIComponent(projectId)}`;
  const [goal, history] = await Promise.all([api<GoalWithTasksView>('GET', `${base}/goal`), api<GoalVersionView[]>('GET', `${base}/goal-history?limit=${HISTORY_SHOWN}`)]);
  return { goal, history };
}

/** A project's goal, north star, sprint label and goal mode, edited in place, with the versions before. */
export function GoalView({ projectId, project }: { projectId: string; project?: ProjectView }) {
  const data = useLive(`goal:${projectId}`, () => loadGoal(projectId), applyGoal(projectId));
  return (
    <section aria-labelledby="goal-heading">
      <h1 id="goal-heading">Goal{project ? ` of ${project.name}` : ''}</h1>
      {data.error && <p role="alert">Could not load the goal: {data.error}</p>}
      {!data.data && !data.error && <p>Loading…</p>}
      {data.data && (
        <>
          <GoalForm projectId={projectId} goal={data.data.goal} onSaved={(goal) => data.set((d) => applyGoal(projectId)(d, { event: 'goal_changed', data: { goal } }))} />
          <ModeSwitch projectId={projectId} goal={data.data.goal} onSaved={(mode) => data.set((d) => ({ ...d, goal: { ...d.goal, mode } }))} />
          <History versions={data.data.history} />
        </>
      )}
    </section>
  );
}

function GoalForm({ projectId, goal, onSaved }: { projectId: string; goal: Goal; onSaved: (goal: Goal) => void }) {
  const [content, setContent] = useState(goal.content);
  const [northStar, setNorthStar] = useState(goal.north_star);
  const [sprint, setSprint] = useState(goal.sprint);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState('');
  // A change made elsewhere (an agent, another tab) shows at once unless the person is editing.
  const [edited, setEdited] = useState(false);
  useEffect(() => {
    if (edited) return;
    setContent(goal.content);
    setNorthStar(goal.north_star);
    setSprint(goal.sprint);
  }, [goal.version, goal.content, goal.north_star, goal.sprint]);
  const edit = (set: (v: string) => void) => (e: Event) => {
    setEdited(true);
    setSaved('');
    set((e.currentTarget as HTMLInputElement).value);
  };
  const save = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const next = await api<Goal>('POST', `/projects/${encodeURIComponent(projectId)}/goal`, { content, north_star: northStar, sprint });
      setEdited(false);
      setSaved(`Saved as version ${next.version}.`);
      onSaved(next);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      class="panel"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <p>
        <small>
          {goal.version === 0 ? 'No goal written yet.' : `Version ${goal.version}, updated ${new Date(goal.updated_at!).toLocaleString()}`}
          {goal.north_star_by ? ` · north star set by ${goal.north_star_by}` : ''}
        </small>
      </p>
      <label for="goal-content">Goal</label>
      <textarea id="goal-content" rows={8} value={content} onInput={edit(setContent)} disabled={busy} />
      <label for="goal-north-star">North star</label>
      <textarea id="goal-north-star" rows={3} value={northStar} onInput={edit(setNorthStar)} disabled={busy} />
      <label for="goal-sprint">Sprint</label>
      <input id="goal-sprint" type="text" value={sprint} onInput={edit(setSprint)} disabled={busy} />
      {error && <p role="alert">{error}</p>}
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save goal
        </button>
        <p class="saved" role="status">
          {saved}
        </p>
      </div>
    </form>
  );
}

function ModeSwitch({ projectId, goal, onSaved }: { projectId: string; goal: Goal; onSaved: (mode: GoalMode) => void }) {
  const [error, setError] = useState<string>();
  const change = async (mode: GoalMode) => {
    setError(undefined);
    try {
      onSaved((await api<{ mode: GoalMode }>('PATCH', `/projects/${encodeURIComponent(projectId)}/goal-mode`, { mode })).mode);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <div class="panel">
      <label for="goal-mode">Goal mode</label>
      <select id="goal-mode" value={goal.mode} onChange={(e) => void change(e.currentTarget.value as GoalMode)}>
        <option value="manual">manual</option>
        <option value="auto">auto</option>
      </select>
      <p>
        <small>manual: people and sessions write the goal; auto: Baton may also keep its AUTO BLOCKS current.</small>
      </p>
      {error && <p role="alert">{error}</p>}
    </div>
  );
}

function History({ versions }: { versions: GoalVersionView[] }) {
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      {versions.length === 0 && <p>No version yet.</p>}
      <ol class="cards" aria-label="Goal versions, newest first">
        {versions.map((v) => (
          <li key={v.version}>
            <details>
              <summary>
                Version {v.version} · {new Date(v.created_at).toLocaleString()}
              </summary>
              <p class="context">{v.content || '(empty)'}</p>
              {v.north_star && <p class="context">North star: {v.north_star}</p>}
              {v.sprint && <p class="context">Sprint: {v.sprint}</p>}
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}
