import { passwordPage } from '../../common/http/html-page';
import { GATE_PATH } from './site-gate.service';

/** The small password page a browser is shown in front of the site; `message` says why it is shown again. */
export function gatePage(next: string, message?: string): string {
  return passwordPage({ title: 'Baton: password required', heading: 'This Baton is private', label: 'Site password', action: GATE_PATH, next, message });
}
