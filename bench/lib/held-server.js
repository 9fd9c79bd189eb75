'use strict';
/**
 * Child process of bench/waiters.js: the framework's own cost of waiting requests. A bare NestJS
 * application on express (as bench/lib/servers.js's ceiling) whose one route,
 * `POST /projects/:project_id/messages/receive`, awaits a promise: every request it is sent waits
 * until the parent says `answer`, and all are then answered at once with one message (the shape of
 * a receive's answer). Over IPC: `{ url, pid }` once listening; `waiting` is answered with the
 * number of requests held; `answer` answers them all.
 */
const path = require('node:path');

process.once('message', async ({ root }) => {
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  const { Body, Controller, HttpCode, Module, Param, Post } = require(path.join(root, 'node_modules', '@nestjs', 'common'));
  const { NestFactory } = require(path.join(root, 'node_modules', '@nestjs', 'core'));
  let held = [];
  class HeldController {
    receive() {
      return new Promise((resolve) => held.push(resolve));
    }
  }
  Controller('projects')(HeldController);
  Param()(HeldController.prototype, 'receive', 0);
  Body()(HeldController.prototype, 'receive', 1);
  const receive = Object.getOwnPropertyDescriptor(HeldController.prototype, 'receive');
  HttpCode(200)(HeldController.prototype, 'receive', receive);
  Post(':project_id/messages/receive')(HeldController.prototype, 'receive', receive);
  class HeldModule {}
  Module({ controllers: [HeldController] })(HeldModule);
  const app = await NestFactory.create(HeldModule, { logger: false });
  app.disable('x-powered-by');
  app.getHttpServer().keepAliveTimeout = 65_000;
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address();
  process.on('message', (m) => {
    if (m === 'waiting') process.send({ waiting: held.length });
    if (m === 'answer') {
      const answer = {
        messages: [{ seq: 1, from_session_id: null, from_agent: null, to_session_id: null, to_agent: null, broadcast: true, body: 'all', created_at: new Date().toISOString() }],
        acked_through: 0,
      };
      const waiting = held;
      held = [];
      for (const resolve of waiting) resolve(answer);
    }
  });
  process.send({ url: `http://127.0.0.1:${port}`, pid: process.pid });
  process.once('disconnect', () => app.close().finally(() => process.exit(0)));
});
