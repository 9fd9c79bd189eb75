import type { ProjectView } from '../api/types';
import { paths } from '../router';

/** Every project of the workspace, each leading to its inbox. */
export function ProjectsView({ projects, error }: { projects?: ProjectView[]; error?: string }) {
  return (
    <section aria-labelledby="projects-heading">
      <h1 id="projects-heading">Projects</h1>
      {error && <p role="alert">Could not load the projects: {error}</p>}
      {!projects && !error && <p>Loading…</p>}
      {projects?.length === 0 && <p>No project yet. An assistant connected to Baton creates one when it starts working.</p>}
      {projects && projects.length > 0 && (
        <ul class="cards" aria-label="Projects">
          {projects.map((p) => (
            <li key={p.id}>
              <a href={paths.inbox(p.id)}>
                {p.icon && <span aria-hidden="true">{p.icon} </span>}
                <span class="project-name">{p.name}</span>
              </a>
              <small>updated {new Date(p.updated_at).toLocaleString()}</small>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
