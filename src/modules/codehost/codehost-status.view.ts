import { ProjectCodehost } from './project-codehost.entity';
import { RepositoryView } from './codehost-repository.view';

/** GET .../codehost/status: the link, never the token; `repository` and `problem` come from asking the code host now. */
export type CodehostStatusView =
  | { connected: false }
  | {
      connected: true;
      repo: string;
      account_login: string;
      /** `connection`: a signed-in person's code-host connection (hosted); `personal_token`: a token sent once (self-hosted). */
      token_source: 'connection' | 'personal_token';
      connected_at: string;
      updated_at: string;
      repository: RepositoryView | null;
      problem: string | null;
    };

export function statusView(link: ProjectCodehost, repository: RepositoryView | null, problem: string | null): CodehostStatusView {
  return {
    connected: true,
    repo: `${link.repo_owner}/${link.repo_name}`,
    account_login: link.account_login,
    token_source: link.token_sealed ? 'personal_token' : 'connection',
    connected_at: new Date(link.connected_at).toISOString(),
    updated_at: new Date(link.updated_at).toISOString(),
    repository,
    problem,
  };
}
