import { Http } from './http';
import { RunningBackend } from './backends';

/** Small clients for the profile-layer suites: what a dashboard or an agent would send. */
export function profileClient(get: () => { run: RunningBackend; projectId: string }) {
  const http = (): Http => get().run.http;
  const put = (path: string, body: unknown) => http().send('PUT', path, body);
  const save = async (scope: string, id: string, body: Record<string, unknown>) => {
    const res = await put(`/profile-layers/${scope}/${id}`, body);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  };
  const effective = async (project = get().projectId, query = '') => {
    const res = await http().get(`/projects/${project}/effective-profile${query}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const newProject = async (name: string) => (await http().post('/projects', { name })).body.id as string;
  const newSession = async (project = get().projectId, human = 'ada') => (await http().post('/sessions/register', { project_id: project, human_id: human })).body.id as string;
  const clearWorkspace = async () => {
    await http().delete('/profile-layers/workspace/singleton');
  };
  return { put, save, effective, newProject, newSession, clearWorkspace };
}

export const PROFILE_TEST_ENV = {
  SERVICE_HUMAN_ID: 'ada',
  SERVICE_SWEEP_INTERVAL_SECONDS: '0',
  SERVICE_PROFILE_DEFAULTS_CACHE_SECONDS: '0',
  SERVICE_MCP_RATE_LIMIT: '1000000',
};
