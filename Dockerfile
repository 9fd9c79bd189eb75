# syntax=docker/dockerfile:1
# Baton production image (Node 24 LTS).
#
#   docker build -t baton --build-arg GIT_SHA=$(git rev-parse HEAD) .
#   docker run -p 7878:7878 -e SESSION_SECRET=... -e APP_URL=http://localhost:7878 -v baton-data:/data baton
#
# Stages: `deps` installs the production dependencies, `build` compiles TypeScript with the dev
# dependencies, and the runtime stage takes node_modules from `deps` and dist/ from `build`: no
# dev dependency and no source in the final image. Nothing is compiled natively: better-sqlite3
# loads the Node-API binary that ships inside its package, so no build toolchain is installed.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------- production dependencies
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The dashboard is a workspace of the root package: npm ci needs its package.json.
COPY apps/dashboard/package.json ./apps/dashboard/
# --ignore-scripts: the `prepare` script would run `npm run build` (sources and TypeScript are not
# here), and no production dependency needs an install script. The Node.js package the project
# brings for its npm scripts on older machines is a dev dependency: the image has its own Node 24.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && node -e 'new (require("better-sqlite3"))(":memory:").prepare("select 1").get()' \
 && npm cache clean --force

# ---------------------------------------------------------------- build
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/dashboard/package.json ./apps/dashboard/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY libs ./libs
COPY migrations ./migrations
# The browser dashboard (built by `npm run build` after the server, to apps/dashboard/dist).
COPY apps/dashboard/index.html apps/dashboard/vite.config.ts apps/dashboard/tsconfig.json ./apps/dashboard/
COPY apps/dashboard/src ./apps/dashboard/src
# `npm run build` is scripts/build-if-stale.js --always, which runs the steps above and records what it built.
COPY scripts ./scripts
RUN npm run build

# ---------------------------------------------------------------- runtime
FROM ${NODE_IMAGE} AS runtime
ARG GIT_SHA=""
ENV NODE_ENV=production \
    SERVICE_HOST=0.0.0.0 \
    SERVICE_PORT=7878 \
    SERVICE_DATA_DIR=/data \
    SERVICE_GIT_SHA=${GIT_SHA}
WORKDIR /app
RUN mkdir -p /data && chown node:node /data
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Served at /dashboard: found beside dist/ through its package.json (src/modules/dashboard/dashboard-static.ts).
COPY --from=build /app/apps/dashboard/package.json /app/apps/dashboard/
COPY --from=build /app/apps/dashboard/dist ./apps/dashboard/dist
# The public pages' text and the files they load (src/modules/pages/site-content.ts finds them beside package.json).
COPY content ./content
COPY public ./public
COPY package.json ./
# Node's compile cache (src/common/lifecycle/compile-cache.ts), filled here from the image's own
# files so that the first start of a new container reads its modules instead of compiling them.
# Filled by one real start (src/cli/warm-compile-cache.ts: until GET /health answers), so it holds
# every module a start loads, and as `node`: Node keeps each user's entries in a folder named with
# the uid, and the entries root wrote were never read by the user Baton runs as.
ENV NODE_COMPILE_CACHE=/app/.compile-cache
RUN mkdir -p /app/.compile-cache && chown node:node /app/.compile-cache
USER node
RUN node --max-semi-space-size=8 dist/src/cli/warm-compile-cache.js
VOLUME ["/data"]
EXPOSE 7878
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.SERVICE_PORT || 7878) + '/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The same V8 setting as `npm start` (see docs/decisions.md: young generation capped at 8 MB).
CMD ["node", "--max-semi-space-size=8", "dist/src/main.js"]
