'use strict';
/**
 * One server of `npm run bench -- instructions`, run by that benchmark under callgrind:
 *
 *   node bench/lib/instructions-server.js <root> sqlite
 *   node bench/lib/instructions-server.js <root> ceiling '<json body>'
 *
 * `sqlite` is Baton self-hosted on a fresh SQLite file with one project; `ceiling` the bare NestJS
 * application of bench/read.js answering `GET /projects/:id` with the given body. Prints one line,
 * `{"url": ..., "path": ...}`, once it serves, and stops on SIGTERM.
 */
const path = require('node:path');
const { randomBytes } = require('node:crypto');

async function main() {
  const [root, kind, body] = process.argv.slice(2);
  process.env.NODE_ENV = 'production';
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  const { startBaton, startCeiling, request } = require('./servers');
  let server;
  let route;
  if (kind === 'ceiling') {
    server = await startCeiling(root, JSON.parse(body));
    route = '/projects/00000000-0000-4000-8000-000000000000';
  } else if (kind === 'sqlite') {
    server = await startBaton(root, { NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex'), APP_URL: 'http://127.0.0.1' });
    const project = (await request('POST', `${server.url}/projects`, { body: { name: 'bench' }, expect: 201 })).json;
    route = `/projects/${project.id}`;
  } else {
    throw new Error(`unknown server ${kind}: sqlite or ceiling`);
  }
  process.once('SIGTERM', () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  process.stdout.write(`${JSON.stringify({ url: server.url, path: route })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
