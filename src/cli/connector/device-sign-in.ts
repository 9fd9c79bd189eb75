import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface StoredToken {
  url: string;
  token: string;
  tenant_id: string;
}

interface Started {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** Where the connector keeps its token between runs: readable by the person only. */
export function defaultTokenFile(url: string): string {
  const host = new URL(url).host.replace(/[^A-Za-z0-9.-]/g, '_');
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'baton', `connector-${host}.json`);
}

export function readToken(file: string, url: string): StoredToken | undefined {
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredToken;
    return stored.url === url && typeof stored.token === 'string' ? stored : undefined;
  } catch {
    return undefined;
  }
}

export function saveToken(file: string, stored: StoredToken): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });
  chmodSync(file, 0o600);
}

export function forgetToken(file: string): void {
  rmSync(file, { force: true });
}

/**
 * The device sign-in (RFC 8628) of Baton's tunnel client: shows the person where to approve and
 * the code, then polls /auth/tunnel-poll at the interval Baton gives until the token arrives.
 * The token is never printed.
 */
export async function signInByDevice(url: string, say: (line: string) => void): Promise<StoredToken> {
  const startRes = await fetch(`${url}/auth/tunnel-connect`, { method: 'POST', headers: { accept: 'application/json' } });
  const started = (await startRes.json()) as Started & { detail?: string };
  if (!startRes.ok) throw new Error(`Baton refused to start the sign-in: ${started.detail ?? startRes.status}`);
  say(`To connect this machine to Baton, open ${started.verification_uri_complete}`);
  say(`and check that it shows the code ${started.user_code}. Waiting for your approval...`);
  let interval = Math.max(1, started.interval) * 1000;
  const deadline = Date.now() + started.expires_in * 1000;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, interval + 100));
    const res = await fetch(`${url}/auth/tunnel-poll?device_code=${encodeURIComponent(started.device_code)}`, { headers: { accept: 'application/json' } });
    const body = (await res.json()) as { token?: string; tenant_id?: string; code?: string; detail?: string };
    if (res.ok && body.token && body.tenant_id) {
      say('Approved: this machine is connected to your workspace.');
      return { url, token: body.token, tenant_id: body.tenant_id };
    }
    if (body.code === 'AUTHORIZATION_PENDING') continue;
    if (body.code === 'SLOW_DOWN') {
      interval += 1000;
      continue;
    }
    throw new Error(`sign-in ended: ${body.detail ?? body.code ?? res.status}`);
  }
  throw new Error('sign-in expired: run `baton connect` again');
}
