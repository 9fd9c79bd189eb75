/** The body of every refusal: what was wrong, and a stable code where one applies. */
export const ERROR_BODY = {
  type: 'object',
  properties: {
    detail: { type: 'string', description: 'What was wrong, naming the field or the state that refused the request.' },
    code: { type: 'string', description: 'A stable code for programs (FILE_LOCKED, PLAN_REQUIRED, VERIFICATION_REQUIRED, ...).' },
    error_id: { type: 'string', description: 'Set on an unexpected error; the same id is in the server log.' },
  },
  required: ['detail'],
};

export interface RouteTraits {
  isPublic: boolean;
  hasPathParams: boolean;
  hasInput: boolean;
  writes?: boolean;
}

const refusal = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } });

/**
 * The refusals a route can give, from what it takes and who may call it. Every
 * route shares the rate limit (429) and the database's availability (503);
 * a route that reads input validates it (400); a route behind sign-in refuses
 * a missing or wrong token (401) and a token without the right (403); a path
 * that names a record may not find it (404); a write may meet a conflicting
 * state (409, its `code` says which) or a body that is not JSON (415).
 */
export function errorAnswers(traits: RouteTraits): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  if (traits.hasInput) answers['400'] = refusal('The input is invalid; `detail` names the field.');
  if (!traits.isPublic) {
    answers['401'] = refusal('No valid token or web session.');
    answers['403'] = refusal('The caller may not do this (scope, role or plan).');
  }
  if (traits.hasPathParams) answers['404'] = refusal('The record named in the path does not exist for this caller.');
  if (traits.writes) {
    answers['409'] = refusal('The current state refuses the change; `code` says why.');
    answers['415'] = refusal('The body is not JSON.');
  }
  answers['429'] = refusal('Too many requests; `Retry-After` says when to try again.');
  answers['503'] = refusal(
    'The database is unavailable, the workspace is being moved to another database server, or the request ran out of time; `Retry-After` says when to try again.',
  );
  return answers;
}
