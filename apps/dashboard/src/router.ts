import { useEffect, useState } from 'preact/hooks';

/** Where the dashboard lives on Baton's site; every route is a path under it (no hash). */
export const BASE = '/dashboard';

/** The views of one project, each at /projects/{id}/{view} (the inbox at .../hitl). */
export type ProjectViewName = 'inbox' | 'goal' | 'board' | 'knowledge' | 'profile' | 'settings' | 'sessions' | 'messages' | 'handoffs' | 'timeline';

export type Route = { view: 'projects' } | { view: ProjectViewName; projectId: string } | { view: 'account' } | { view: 'plan' } | { view: 'not-found' };

const PROJECT_VIEW = /^\/projects\/([^/]+)\/(hitl|goal|board|knowledge|profile|settings|sessions|messages|handoffs|timeline)\/?$/;

/** The route a path under BASE names. */
export function routeOf(pathname: string): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  if (rest === '' || rest === '/') return { view: 'projects' };
  const project = PROJECT_VIEW.exec(rest);
  if (project) return { view: project[2] === 'hitl' ? 'inbox' : (project[2] as ProjectViewName), projectId: decodeURIComponent(project[1]) };
  if (rest === '/account' || rest === '/account/') return { view: 'account' };
  if (rest === '/plan' || rest === '/plan/') return { view: 'plan' };
  return { view: 'not-found' };
}

export const paths = {
  projects: () => `${BASE}/`,
  inbox: (projectId: string) => `${BASE}/projects/${encodeURIComponent(projectId)}/hitl`,
  goal: (projectId: string) => `${BASE}/projects/${encodeURIComponent(projectId)}/goal`,
  board: (projectId: string) => `${BASE}/projects/${encodeURIComponent(projectId)}/board`,
  knowledge: (projectId: string) => `${BASE}/projects/${encodeURIComponent(projectId)}/knowledge`,
  profile: (projectId: string) => `${BASE}/projects/${encodeURIComponent(projectId)}/profile`,
  settings: (projectId: string) => `${BASE}/projects/${encodeURIComponent(projectId)}/settings`,
  sessions: (projectId: string) => `${BASE}/projects/${encodeURIComponent(projectId)}/sessions`,
  messages: (projectId: string) => `${BASE}/projects/${encodeURIComponent(projectId)}/messages`,
  handoffs: (projectId: string) => `${BASE}/projects/${encodeURIComponent(projectId)}/handoffs`,
  timeline: (projectId: string) => `${BASE}/projects/${encodeURIComponent(projectId)}/timeline`,
  account: () => `${BASE}/account`,
  plan: () => `${BASE}/plan`,
};

const changed = new Set<() => void>();
addEventListener('popstate', () => changed.forEach((listener) => listener()));

/** Goes to another view through the history API (Back and Forward work; the server answers any of these paths with the app). */
export function navigate(path: string): void {
  if (path === location.pathname) return;
  history.pushState(null, '', path);
  changed.forEach((listener) => listener());
}

/** The current route, re-rendering on navigation. */
export function useRoute(): Route {
  const [pathname, setPathname] = useState(location.pathname);
  useEffect(() => {
    const listener = () => setPathname(location.pathname);
    changed.add(listener);
    return () => void changed.delete(listener);
  }, []);
  return routeOf(pathname);
}

/** A click on a link inside the app, without a modifier key, navigates without reloading. */
export function onLinkClick(event: MouseEvent): void {
  const link = (event.target as Element | null)?.closest?.('a');
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith(BASE) || link.target || link.getAttribute('href')?.startsWith('#')) return;
  event.preventDefault();
  navigate(url.pathname);
}
