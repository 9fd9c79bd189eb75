import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitError, runGit } from './run-git';

describe('runGit', () => {
  let repo: string;
  let notRepo: string;

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'baton-run-git-'));
    notRepo = mkdtempSync(join(tmpdir(), 'baton-not-git-'));
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { env: { PATH: process.env.PATH, HOME: repo } });
    git('init', '-q');
    writeFileSync(join(repo, 'naïve.txt'), 'one');
    git('add', '.');
    git('-c', 'user.name=Baton', '-c', 'user.email=baton@example.com', 'commit', '-qm', 'first');
  });

  afterAll(() => {
    rmSync(repo, { recursive: true, force: true });
    rmSync(notRepo, { recursive: true, force: true });
  });

  it('answers what git prints, with paths unquoted', async () => {
    expect(await runGit(repo, ['log', '--name-only', '--pretty=format:%s'])).toBe('first\nnaïve.txt\n');
  });

  it("rejects with git's own first line of reason outside a repository", async () => {
    const error = await runGit(notRepo, ['log']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect((error as GitError).reason).toMatch(/not a git repository/);
  });

  it('ignores GIT_DIR and friends of the process environment', async () => {
    process.env.GIT_DIR = notRepo;
    try {
      expect(await runGit(repo, ['log', '--pretty=format:%s'])).toBe('first');
    } finally {
      delete process.env.GIT_DIR;
    }
  });

  it('passes arguments to git as they are, without a shell', async () => {
    const marker = join(notRepo, 'touched');
    expect(await runGit(repo, ['log', `--pretty=format:$(touch ${marker})`])).toBe(`$(touch ${marker})`);
    expect(existsSync(marker)).toBe(false);
  });

  it('kills git when it takes longer than the timeout', async () => {
    const started = Date.now();
    // cat-file --batch waits for object names on its standard input, which never come.
    const error = await runGit(repo, ['cat-file', '--batch'], { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses output above the bound', async () => {
    const error = await runGit(repo, ['log', '--pretty=format:%H%n%H%n%H'], { maxBytes: 16 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect((error as GitError).reason).toMatch(/maxBuffer/);
  });
});
