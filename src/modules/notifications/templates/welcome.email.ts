import type { Email } from '../email.sender';
import { htmlLetter, oneLine } from './email-html.util';

/** The first e-mail of a new workspace: where it lives and how to make its first API token for an assistant. */
export function welcomeEmail(to: string, workspace: string, baseUrl: string): Email {
  const name = oneLine(workspace);
  const subject = `Welcome to Baton: ${name} is ready`;
  const ready = `Your workspace "${name}" is ready.`;
  const token =
    'To connect an assistant, create your first API token: open the dashboard, go to Settings, API tokens, and choose "New token". It is shown once; keep it in your assistant\'s configuration as a bearer token.';
  const mcp = `Your assistant's MCP endpoint is ${baseUrl}/mcp.`;
  const dashboard = `${baseUrl}/dashboard`;
  return {
    to,
    subject,
    text: [ready, token, mcp, `Dashboard: ${dashboard}`].join('\n\n') + '\n',
    html: htmlLetter(subject, [ready, token, mcp, { link: dashboard, label: 'Open the dashboard' }]),
  };
}
