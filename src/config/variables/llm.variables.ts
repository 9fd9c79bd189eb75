import { httpUrl, integer, text } from '../config.parsers';
import { variable } from './variable';

/** The model provider Baton asks for work it cannot do by rule (decision-log consolidation): an OpenAI-compatible chat API. */
export const LLM_VARIABLES = {
  llmUrl: variable<string | undefined>({
    name: 'SERVICE_LLM_URL',
    description: 'base URL of an OpenAI-compatible chat API (Baton posts to <url>/chat/completions); unset: features that need a model answer "not configured"',
    sensitive: false,
    parse: httpUrl,
  }),
  llmApiKey: variable<string | undefined>({
    name: 'SERVICE_LLM_API_KEY',
    description: 'bearer key for SERVICE_LLM_URL',
    sensitive: true,
    parse: text,
  }),
  llmModel: variable({
    name: 'SERVICE_LLM_MODEL',
    description: 'model name sent to SERVICE_LLM_URL',
    sensitive: false,
    parse: text,
    default: 'gpt-4o-mini',
  }),
  llmTimeoutS: variable({
    name: 'SERVICE_LLM_TIMEOUT_S',
    description: 'seconds Baton waits for the model provider before giving up (nothing is changed then)',
    sensitive: false,
    parse: integer(1, 300),
    default: 60,
  }),
} as const;
