import 'reflect-metadata';
import { ProjectIdDto } from '../modules/projects/dto/project-id.dto';
import { ClaimSprintItemDto } from '../modules/sprint/dto/claim-sprint-item.dto';
import { SprintItemRefDto } from '../modules/sprint/dto/sprint-item-ref.dto';
import { CompleteSprintItemDto } from '../modules/sprint/dto/transition.dto';
import { READ_ONLY } from './tool-annotations';
import { toolInput } from './tool-input';

/** What every declaration carries besides its input. */
const TOOL = { description: '', annotations: READ_ONLY };
const PROJECT = '3f2b8c1e-4a5d-4e6f-9a0b-1c2d3e4f5a6b';
const SESSION = '9a0b1c2d-3e4f-4a6b-8c1e-3f2b4a5d4e6f';

describe('toolInput', () => {
  test('a params-and-body tool gets one instance of each class, each holding only its own fields', async () => {
    const input = toolInput({ name: 'complete_sprint_item', ...TOOL, params: SprintItemRefDto, body: CompleteSprintItemDto });
    const [params, body] = await input.read({ project_id: PROJECT, item_id: 'build-api', notes: 'shipped' });
    expect(params).toBeInstanceOf(SprintItemRefDto);
    expect(params).toMatchObject({ project_id: PROJECT, item_id: 'build-api' });
    expect(body).toBeInstanceOf(CompleteSprintItemDto);
    expect(body).toMatchObject({ notes: 'shipped' });
    expect(body).not.toHaveProperty('project_id');
    expect(body).not.toHaveProperty('item_id');
  });

  test('the arguments are validated together: a bad field of either class is refused, named as the REST route names it', async () => {
    const input = toolInput({ name: 'claim', ...TOOL, params: ProjectIdDto, body: ClaimSprintItemDto });
    await expect(input.read({ project_id: 'nope', session_id: SESSION })).rejects.toThrow(/project_id/);
    await expect(input.read({ project_id: PROJECT })).rejects.toThrow('session_id is required');
    await expect(input.read({ project_id: PROJECT, session_id: SESSION, extra: 1 })).rejects.toThrow('unknown field extra');
  });

  test('a one-class tool gets that class; a tool without arguments refuses any', async () => {
    const [only] = await toolInput({ name: 'get_project', ...TOOL, input: ProjectIdDto }).read({ project_id: PROJECT });
    expect(only).toBeInstanceOf(ProjectIdDto);
    const none = toolInput({ name: 'list_projects', ...TOOL });
    expect(none.schemaClass).toBeUndefined();
    await expect(none.read({})).resolves.toEqual([undefined]);
    await expect(none.read({ x: 1 })).rejects.toThrow('unknown field x');
  });

  test('refuses at boot a tool whose params and body declare the same field', () => {
    expect(() => toolInput({ name: 'twice', ...TOOL, params: SprintItemRefDto, body: ProjectIdDto })).toThrow(
      'MCP tool twice: params SprintItemRefDto and body ProjectIdDto both declare project_id',
    );
  });

  test('refuses at boot a tool declaring params without body, or input beside them', () => {
    expect(() => toolInput({ name: 'half', ...TOOL, params: ProjectIdDto })).toThrow('params and body are declared together');
    expect(() => toolInput({ name: 'both', ...TOOL, input: ProjectIdDto, params: ProjectIdDto, body: ClaimSprintItemDto })).toThrow('not both');
  });
});
