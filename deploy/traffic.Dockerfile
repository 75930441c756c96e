# syntax=docker/dockerfile:1
# The traffic generator image (docs/decisions/015-deployment-files.md): tools/traffic with
# Debian's Chromium. Build from the repository root:
#   docker build -f deploy/traffic.Dockerfile -t showroom-traffic .
ARG NODE_IMAGE=node:20-bookworm-slim

# Production dependencies only (tsx runs the TypeScript sources, as `npm run traffic` does).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/contracts/package.json packages/contracts/
COPY tools/images/package.json tools/images/
COPY tools/traffic/package.json tools/traffic/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund --omit=dev -w packages/contracts -w tools/traffic

FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium fonts-liberation \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    CHROME_PATH=/usr/bin/chromium
WORKDIR /app
COPY --from=deps /app ./
COPY tsconfig.base.json ./
COPY packages/contracts/src packages/contracts/src
COPY packages/contracts/tsconfig.json packages/contracts/
COPY tools/traffic/src tools/traffic/src
COPY tools/traffic/profiles tools/traffic/profiles
COPY tools/traffic/tsconfig.json tools/traffic/
COPY scripts/chromium.mjs scripts/
# The live status file is written next to src/ (tools/traffic/status.json) by default.
RUN chown 1000:1000 tools/traffic
# uid 1000 is the image's `node` user; numeric so Kubernetes can check runAsNonRoot.
USER 1000:1000
WORKDIR /app/tools/traffic
# node is PID 1: tools/traffic/src/main.ts stops starting sessions, closes the browsers and
# prints the summary on SIGTERM.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9400/').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "--import", "tsx", "--conditions=source", "src/main.ts", "--status-port", "9400"]
CMD ["--base-url", "http://web:3000", "--profile", "steady", "--duration", "24h"]
