# syntax=docker/dockerfile:1
# Baton production image (Node 24 LTS).
#
#   docker build -t baton --build-arg GIT_SHA=$(git rev-parse HEAD) .
#   docker run -p 7878:7878 -e SESSION_SECRET=... -e APP_URL=http://localhost:7878 -v baton-data:/data baton
#
# Stages: `deps` installs the production dependencies (better-sqlite3 is compiled there),
# `build` compiles TypeScript with the dev dependencies, and
# the runtime stage takes node_modules from `deps` and dist/ from `build`: no compiler, no dev
# dependency and no source in the final image.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------- production dependencies
FROM ${NODE_IMAGE} AS deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# better-sqlite3 is compiled here against the headers of Node 24.18.1 (same ABI as every 24.x),
# taken from the npm registry: from 24.19.0 on, node::ObjectWrap in the headers aborts the
# process ("Assertion failed: (env) != nullptr" in node::RemoveEnvironmentCleanupHook) when the
# garbage collector frees a better-sqlite3 statement, and the header code is compiled into the
# addon. A prebuilt binary is not used: nothing says which headers it was built against.
# Set ADDON_HEADERS=same to build against the image's own headers once Node fixes this.
ARG ADDON_HEADERS=24.18.1
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the `prepare` script would run `npm run build`, which needs the sources and
# TypeScript (a dev dependency); the one install script we need is better-sqlite3's, run next.
# Only the compiled addon of better-sqlite3 is kept (its C sources and objects are ~30 MB).
RUN set -eu; \
    if [ "$ADDON_HEADERS" = same ]; then \
      nodedir=/usr/local; \
    else \
      pkg="$(node -p '"node-" + process.platform + "-" + process.arch')"; \
      npm install --prefix /tmp/headers --no-save --no-package-lock --no-audit --no-fund "$pkg@$ADDON_HEADERS"; \
      nodedir="/tmp/headers/node_modules/$pkg"; \
    fi; \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund; \
    npm_config_nodedir="$nodedir" npm_config_build_from_source=true npm rebuild better-sqlite3; \
    cd node_modules/better-sqlite3; \
    mv build/Release/better_sqlite3.node /tmp/; \
    rm -rf build deps src; \
    mkdir -p build/Release; \
    mv /tmp/better_sqlite3.node build/Release/; \
    cd /app; \
    node -e 'new (require("better-sqlite3"))(":memory:").prepare("select 1").get()'; \
    rm -rf /tmp/headers; \
    npm cache clean --force

# ---------------------------------------------------------------- build
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY libs ./libs
COPY migrations ./migrations
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
COPY package.json ./
USER node
VOLUME ["/data"]
EXPOSE 7878
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.SERVICE_PORT || 7878) + '/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The same V8 setting as `npm start` (see docs/decisions.md: young generation capped at 8 MB).
CMD ["node", "--max-semi-space-size=8", "dist/src/main.js"]
