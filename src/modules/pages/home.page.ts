/** The inner HTML of /: what Baton is, with a screenshot of a real sprint board (public/board.png, taken by test/pages-browser.e2e-spec.ts with BATON_UPDATE_BOARD_PNG=1). */
export function renderHome(): string {
  return `<h1>The live state of your software projects, for AI assistants and the people beside them</h1>
<p class="lede">Baton remembers what your assistants are doing between sessions: goals, sprint items and who claimed them, file locks, handoffs and the questions waiting for a person. Any MCP client can use it.</p>
<p><a href="/onboarding">Connect your assistant</a> · <a href="/demo">See the demo project</a> · <a href="/pricing">Pricing</a></p>
<figure>
<img src="/static/board.png" width="1200" height="800" alt="A Baton sprint board: items pending, one in progress held by an assistant session, and one done.">
<figcaption class="muted">A project's board: what each assistant holds, and what waits for you.</figcaption>
</figure>
<div class="cards">
<section class="card"><h2>Sessions that remember</h2><p>Every session starts with the project's context block: the goal, the open sprint items, the last handoff, the decisions already taken.</p></section>
<section class="card"><h2>Assistants that do not collide</h2><p>Sprint items are claimed, files are locked per session, and a session that goes silent gives its work back.</p></section>
<section class="card"><h2>People in the loop</h2><p>An assistant asks; you answer from the dashboard or by e-mail; the answer reaches the assistant at once.</p></section>
<section class="card"><h2>Yours to run</h2><p>Self-hosted on one SQLite file with no account, or hosted for a team on Postgres. Same program.</p></section>
</div>`;
}
