# syntax=docker/dockerfile:1
# The api image (docs/decisions/015-deployment-files.md). Build from the repository root:
#   docker build -f deploy/api.Dockerfile -t showroom-api .
ARG NODE_IMAGE=node:20-bookworm-slim

# npm ci needs every workspace's package.json to check them against the lock file.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/contracts/package.json packages/contracts/
COPY tools/images/package.json tools/images/
COPY tools/traffic/package.json tools/traffic/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY bench/package.json bench/
# better-sqlite3 compiles from source when no prebuilt binary can be downloaded (README).
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*

# Build stage: the contracts and the api with their dev dependencies (TypeScript).
FROM manifests AS build
RUN npm ci --no-audit --no-fund -w packages/contracts -w apps/api --include-workspace-root
COPY tsconfig.base.json ./
COPY packages/contracts packages/contracts
COPY apps/api apps/api
RUN npm run build -w packages/contracts && npm run build -w apps/api

# Production dependencies only.
FROM manifests AS deps
RUN npm ci --no-audit --no-fund --omit=dev -w packages/contracts -w apps/api

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    API_HOST=0.0.0.0 \
    API_PORT=3001 \
    DATA_DIR=/var/lib/showroom
WORKDIR /app
COPY --from=deps /app ./
COPY --from=build /app/packages/contracts/dist packages/contracts/dist
COPY --from=build /app/apps/api/dist apps/api/dist
# What the api reads at start (apps/api/src/config.ts REPO_ROOT): flags, catalog seed,
# scenarios, sample shoppers.
COPY apps/api/flags apps/api/flags
COPY data/catalog.json data/scenarios.json data/
COPY data/shoppers data/shoppers
# DATA_DIR holds the SQLite file when DATABASE_URL is empty, and the session secret when
# SESSION_SECRET is empty; with PostgreSQL and SESSION_SECRET set nothing is written.
RUN mkdir -p /var/lib/showroom && chown 1000:1000 /var/lib/showroom
# uid 1000 is the image's `node` user; numeric so Kubernetes can check runAsNonRoot.
USER 1000:1000
EXPOSE 3001
# node is PID 1: apps/api/src/server.ts closes the server and the database on SIGTERM.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.API_PORT||3001)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "apps/api/dist/server.js"]
