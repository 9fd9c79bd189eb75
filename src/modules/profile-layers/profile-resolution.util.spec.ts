import { ProfileValue } from './profile-fields.constants';
import { generationKey, LayerInput, loosenedBy, resolveLayers, restartReport } from './profile-resolution.util';
import { ProfileScope } from './profile-scope.constants';

function layer(scope: ProfileScope, values: Record<string, ProfileValue>, extra: Partial<LayerInput> = {}): LayerInput {
  return { scope_type: scope, scope_id: scope, values: new Map(Object.entries(values)), resets: [], override_reason: null, ...extra };
}

describe('resolveLayers', () => {
  test('a more specific layer wins field by field; fields it does not set come from below', () => {
    const { fields } = resolveLayers([layer('workspace', { execution_mode: 'autonomous', max_pinned_decisions: 30 }), layer('session', { execution_mode: 'interactive' })]);
    expect(fields.get('execution_mode')).toEqual({ value: 'interactive', source: 'session' });
    expect(fields.get('max_pinned_decisions')).toEqual({ value: 30, source: 'workspace' });
    expect(fields.get('auto_worktrees')).toEqual({ value: false, source: 'default' });
  });

  test('reset_fields put a field back to the default, named after the resetting scope', () => {
    const { fields } = resolveLayers([layer('workspace', { code_intel_enabled: false }), layer('user', {}, { resets: ['code_intel_enabled'] })]);
    expect(fields.get('code_intel_enabled')).toEqual({ value: true, source: 'user' });
  });

  test('a looser narrow-only value without a reason is ignored and reported; with one it wins and carries it', () => {
    const tight = layer('workspace', { hitl_auto_answer: false, 'executor_config.test_min': 3, claim_verification_mode: 'strict' });
    const loose = resolveLayers([tight, layer('project', { hitl_auto_answer: true, 'executor_config.test_min': 1, claim_verification_mode: 'advisory' })]);
    expect(loose.fields.get('hitl_auto_answer')).toEqual({ value: false, source: 'workspace' });
    expect(loose.ignored.map((i) => i.field).sort()).toEqual(['claim_verification_mode', 'executor_config.test_min', 'hitl_auto_answer']);
    const allowed = resolveLayers([tight, layer('project', { hitl_auto_answer: true }, { override_reason: 'bot' })]);
    expect(allowed.fields.get('hitl_auto_answer')).toEqual({ value: true, source: 'project', override_reason: 'bot' });
  });

  test("Baton's defaults are not a policy: any layer may move away from them either way", () => {
    const { fields, ignored } = resolveLayers([layer('project', { hitl_auto_answer: true })]);
    expect(fields.get('hitl_auto_answer')).toEqual({ value: true, source: 'project' });
    expect(ignored).toEqual([]);
  });
});

describe('loosenedBy', () => {
  test('names the loosened dials and the layer that set the tighter value; tightening is fine', () => {
    const below = resolveLayers([layer('workspace', { require_merge_approval: true, 'executor_config.test_min': 2 })]).fields;
    expect(loosenedBy({ values: new Map([['require_merge_approval', false]]), resets: [] }, below)).toEqual([{ field: 'require_merge_approval', source: 'workspace' }]);
    expect(loosenedBy({ values: new Map([['executor_config.test_min', 5]]), resets: [] }, below)).toEqual([]);
    expect(loosenedBy({ values: new Map(), resets: ['executor_config.test_min'] }, below)).toEqual([{ field: 'executor_config.test_min', source: 'workspace' }]);
  });
});

describe('restartReport', () => {
  test('the largest need per component among the changed fields', () => {
    const before = new Map<string, ProfileValue>([
      ['executor_config.repo_path', 'a'],
      ['tool_priority_map', {}],
    ]);
    const after = new Map<string, ProfileValue>([
      ['executor_config.repo_path', 'b'],
      ['tool_priority_map', { x: 1 }],
      ['max_pinned_decisions', 3],
    ]);
    expect(restartReport(before, after)).toEqual({ tunnel: 'none', connector: 'hot_reload', capability: 'none', general: 'restart_required' });
    expect(restartReport(after, after)).toEqual({ tunnel: 'none', connector: 'none', capability: 'none', general: 'none' });
  });
});

describe('generationKey', () => {
  test('does not depend on order and changes with any revision or status', () => {
    const a = { scope_type: 'workspace', scope_id: 'singleton', revision: 1, status: null };
    const b = { scope_type: 'hosted_default', scope_id: 'global', revision: 2, status: 'active' };
    expect(generationKey([a, b])).toBe(generationKey([b, a]));
    expect(generationKey([a, { ...b, status: 'deprecated' }])).not.toBe(generationKey([a, b]));
    expect(generationKey([{ ...a, revision: 2 }, b])).not.toBe(generationKey([a, b]));
  });
});
