# syntax=docker/dockerfile:1
# The web image (docs/decisions/015-deployment-files.md). Build from the repository root:
#   docker build -f deploy/web.Dockerfile -t showroom-web .
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

# Build stage: contracts, the product photos and video (tools/images), then the web build.
FROM manifests AS build
RUN npm ci --no-audit --no-fund -w packages/contracts -w tools/images -w apps/web \
    --include-workspace-root
COPY tsconfig.base.json ./
COPY data/catalog.json data/
COPY data/shoppers data/shoppers
COPY packages/contracts packages/contracts
COPY tools/images tools/images
COPY apps/web apps/web
RUN npm run build -w packages/contracts && npm run build -w apps/web

# Production dependencies only.
FROM manifests AS deps
RUN npm ci --no-audit --no-fund --omit=dev -w packages/contracts -w apps/web

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=deps /app ./
COPY --from=build /app/packages/contracts/dist packages/contracts/dist
COPY --from=build /app/apps/web/build apps/web/build
# The server finds apps/web by react-router.config.ts and reads route-rules.json at start.
COPY apps/web/react-router.config.ts apps/web/route-rules.json apps/web/
# uid 1000 is the image's `node` user; numeric so Kubernetes can check runAsNonRoot.
USER 1000:1000
EXPOSE 3000
# node is PID 1: apps/web/server/main.ts closes the server on SIGTERM.
STOPSIGNAL SIGTERM
# /builds/latest.json is answered by the web server itself: the check does not depend on the api.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/builds/latest.json').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "apps/web/build/server-main/main.js"]
