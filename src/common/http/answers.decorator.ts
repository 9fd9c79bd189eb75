import { SetMetadata } from '@nestjs/common';

/** One answer of a route that writes its own response: its status, media type and what it means. */
export interface AnswerDoc {
  status: number;
  contentType?: string;
  description: string;
}

export const ANSWERS = 'baton:answers';

/**
 * Documents what a route that writes its response itself (`@Res()`) answers,
 * for the OpenAPI document (built from the code at `npm run build`, which reads
 * these arguments: object literals or the constants below). A JSON answer's
 * shape is the type argument: `@Answers<ExportView>({ status: 200, contentType: 'application/json', ... })`.
 */
export function Answers<Body = unknown>(...answers: AnswerDoc[]): MethodDecorator & { body?: Body } {
  return SetMetadata(ANSWERS, answers);
}

export const HTML_PAGE: AnswerDoc = { status: 200, contentType: 'text/html', description: 'The page.' };
export const REDIRECT: AnswerDoc = { status: 302, description: 'Redirects (`Location`) to the next step.' };
export const SEE_OTHER: AnswerDoc = { status: 303, description: 'Done; redirects (`Location`) to the page that shows the result.' };
export const SVG_BADGE: AnswerDoc = { status: 200, contentType: 'image/svg+xml', description: 'A badge.' };
export const EVENT_STREAM: AnswerDoc = { status: 200, contentType: 'text/event-stream', description: 'A stream of server-sent events.' };
export const JSON_ANSWER: AnswerDoc = { status: 200, contentType: 'application/json', description: 'Answered.' };
export const DOWNLOAD: AnswerDoc = { status: 200, contentType: 'application/octet-stream', description: 'A file to save (`Content-Disposition: attachment`).' };
export const NO_CONTENT: AnswerDoc = { status: 204, description: 'Done; no body.' };
