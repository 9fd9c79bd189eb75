import { RunningBackend } from './backends';

/** Small helpers shared by the sprint suites: what a dashboard or a worker sends. */
export function sprintClient(run: RunningBackend) {
  const http = run.http;
  return {
    async project(name: string): Promise<string> {
      const res = await http.post('/projects', { name });
      if (res.status !== 201) throw new Error(`project ${name}: ${res.status} ${res.text}`);
      return res.body.id;
    },
    async session(projectId: string, body: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
      const res = await http.post('/sessions/register', { project_id: projectId, ...body });
      if (res.status !== 201) throw new Error(`session: ${res.status} ${res.text}`);
      return res.body;
    },
    async item(projectId: string, body: Record<string, unknown>) {
      const res = await http.post(`/projects/${projectId}/sprint-items`, { version: 'v1', ...body });
      if (res.status !== 201) throw new Error(`item ${JSON.stringify(body)}: ${res.status} ${res.text}`);
      return res.body;
    },
    claim(projectId: string, itemRef: string | undefined, body: Record<string, unknown>) {
      return http.post(`/projects/${projectId}/sprint-items${itemRef ? `/${itemRef}` : ''}/claim`, body);
    },
    get(projectId: string, ref: string) {
      return http.get(`/projects/${projectId}/sprint-items/${ref}`);
    },
  };
}
