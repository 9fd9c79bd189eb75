import { CodehostConnection } from './codehost-connection.entity';

/** What GET /codehost/connections shows of a connection: never the token. */
export interface CodehostConnectionView {
  account_login: string;
  scopes: string[];
  created_at: string;
  updated_at: string;
}

export function connectionView(row: CodehostConnection): CodehostConnectionView {
  return {
    account_login: row.account_login,
    scopes: row.scopes.split(' ').filter(Boolean),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
