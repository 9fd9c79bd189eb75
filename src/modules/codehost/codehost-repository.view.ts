/** What Baton reads of a repository (GitHub's `GET /repos/{owner}/{repo}`). */
export interface CodehostRepository {
  full_name: string;
  name: string;
  owner: { login: string; avatar_url?: string };
  private: boolean;
  default_branch: string;
  has_issues?: boolean;
  html_url?: string;
  permissions?: { admin?: boolean; maintain?: boolean; push?: boolean; triage?: boolean; pull?: boolean };
}

/** A repository as Baton's answers show it. */
export interface RepositoryView {
  full_name: string;
  private: boolean;
  default_branch: string;
  permissions: { admin: boolean; push: boolean; pull: boolean };
}

export function repositoryView(repo: CodehostRepository): RepositoryView {
  return {
    full_name: repo.full_name,
    private: repo.private === true,
    default_branch: repo.default_branch,
    permissions: { admin: repo.permissions?.admin === true, push: repo.permissions?.push === true, pull: repo.permissions?.pull === true },
  };
}
