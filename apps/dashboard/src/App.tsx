import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api } from './api/client';
import type { MeView, ProjectView } from './api/types';
import { live, type LiveFrame } from './live/events';
import { useLive } from './live/use-live';
import { navigate, onLinkClick, paths, type ProjectViewName, useRoute } from './router';
import { AccountView } from './views/AccountView';
import { BoardView } from './views/BoardView';
import { GoalView } from './views/GoalView';
import { HandoffsView } from './views/HandoffsView';
import { InboxView } from './views/InboxView';
import { KnowledgeView } from './views/KnowledgeView';
import { MessagesView } from './views/MessagesView';
import { PlanView } from './views/PlanView';
import { ProfileView } from './views/ProfileView';
import { ProjectsView } from './views/ProjectsView';
import { SessionsView } from './views/SessionsView';
import { SettingsView } from './views/SettingsView';
import { TimelineView } from './views/TimelineView';

/** The views of a project, in the order the project navigation lists them. */
const PROJECT_VIEWS: [ProjectViewName, string][] = [
  ['inbox', 'Questions'],
  ['goal', 'Goal'],
  ['board', 'Board'],
  ['knowledge', 'Knowledge'],
  ['profile', 'Profile'],
  ['settings', 'Settings'],
  ['sessions', 'Sessions'],
  ['messages', 'Messages'],
  ['handoffs', 'Handoffs'],
  ['timeline', 'Timeline'],
];

const isProjectView = (view: string): view is ProjectViewName => PROJECT_VIEWS.some(([name]) => name === view);

/** project_created, project_renamed and project_deleted change the list in place. */
function applyProjects(projects: ProjectView[], frame: LiveFrame): ProjectView[] {
  const byName = (list: ProjectView[]) => list.sort((a, b) => a.name.localeCompare(b.name));
  if (frame.event === 'project_created') {
    const { project } = frame.data as { project: ProjectView };
    return projects.some((p) => p.id === project.id) ? projects : byName([...projects, project]);
  }
  if (frame.event === 'project_deleted') return projects.filter((p) => p.id !== (frame.data as { project_id: string }).project_id);
  if (frame.event !== 'project_renamed') return projects;
  const { project_id, name } = frame.data as { project_id: string; name: string };
  return byName(projects.map((p) => (p.id === project_id ? { ...p, name } : p)));
}

const loadProjects = async () => (await api<ProjectView[]>('GET', '/projects')).sort((a, b) => a.name.localeCompare(b.name));

export function App() {
  const route = useRoute();
  const projects = useLive('projects', loadProjects, applyProjects);
  const [online, setOnline] = useState(live.online);
  useEffect(() => {
    live.onStatus = setOnline;
    live.start();
    return () => live.stop();
  }, []);
  // Self-hosted, /me answers {}: no account, no account view.
  const me = useLive(
    'me',
    () => api<MeView>('GET', '/me'),
    (m) => m,
  );
  const currentId = 'projectId' in route ? route.projectId : '';
  const projectView: ProjectViewName = isProjectView(route.view) ? route.view : 'inbox';
  // After a navigation inside the app (not on the first load), focus moves to the new view, as a page load would:
  // in the same frame as the view appears (a layout effect), so keys pressed once it shows go to it.
  const main = useRef<HTMLElement>(null);
  const firstView = useRef(true);
  useLayoutEffect(() => {
    if (firstView.current) firstView.current = false;
    else main.current?.focus();
  }, [route.view, currentId]);
  const current = projects.data?.find((p) => p.id === currentId);
  useEffect(() => {
    document.title = current ? `${current.name} · Baton` : 'Baton';
  }, [current?.name]);
  return (
    <div class="shell" onClick={onLinkClick}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <a class="brand" href={paths.projects()}>
          Baton
        </a>
        <nav aria-label="Projects">
          <label for="project-switcher">Project</label>
          <select id="project-switcher" value={currentId} onChange={(e) => navigate(e.currentTarget.value ? paths[projectView](e.currentTarget.value) : paths.projects())}>
            <option value="">All projects</option>
            {projects.data?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </nav>
        <a href={paths.plan()} aria-current={route.view === 'plan' ? 'page' : undefined}>
          Plan and data
        </a>
        {me.data?.account && (
          <a href={paths.account()} aria-current={route.view === 'account' ? 'page' : undefined}>
            Account
          </a>
        )}
        <p class={online ? 'status online' : 'status'} role="status">
          {online ? 'Live' : 'Reconnecting…'}
        </p>
      </header>
      {currentId && (
        <nav class="project-nav" aria-label="Project views">
          <ul>
            {PROJECT_VIEWS.map(([view, label]) => (
              <li key={view}>
                <a href={paths[view](currentId)} aria-current={route.view === view ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <main id="main" tabIndex={-1} ref={main} class={route.view === 'board' ? 'wide' : undefined}>
        {route.view === 'projects' && <ProjectsView projects={projects.data} error={projects.error} />}
        {route.view === 'inbox' && <InboxView projectId={route.projectId} project={current} />}
        {route.view === 'goal' && <GoalView projectId={route.projectId} project={current} />}
        {route.view === 'board' && <BoardView projectId={route.projectId} project={current} />}
        {route.view === 'knowledge' && <KnowledgeView projectId={route.projectId} project={current} />}
        {route.view === 'profile' && <ProfileView projectId={route.projectId} project={current} />}
        {route.view === 'settings' && <SettingsView projectId={route.projectId} project={current} />}
        {route.view === 'sessions' && <SessionsView projectId={route.projectId} project={current} />}
        {route.view === 'messages' && <MessagesView projectId={route.projectId} project={current} />}
        {route.view === 'handoffs' && <HandoffsView projectId={route.projectId} project={current} />}
        {route.view === 'timeline' && <TimelineView projectId={route.projectId} project={current} />}
        {route.view === 'plan' && <PlanView />}
        {route.view === 'account' && (me.data?.account ? <AccountView me={me.data} /> : <NoAccount loading={!me.data} />)}
        {route.view === 'not-found' && (
          <section aria-labelledby="nf-heading">
            <h1 id="nf-heading">Page not found</h1>
            <p>
              <a href={paths.projects()}>Back to the projects</a>
            </p>
          </section>
        )}
      </main>
    </div>
  );
}

function NoAccount({ loading }: { loading: boolean }) {
  return (
    <section aria-labelledby="account-heading">
      <h1 id="account-heading">Account</h1>
      <p>{loading ? 'Loading…' : 'This Baton is self-hosted: it has no accounts, tokens or members.'}</p>
    </section>
  );
}
