# syntax=docker/dockerfile:1
# The application's image: built in one stage, run in a smaller one as the unprivileged `node`
# user. The HEALTHCHECK asks /api/ready (the database answers). See docs/deployment.md.
# Not built in this repository's CI (no container engine on its machines); docs/deployment.md
# says how to smoke-test it.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---------- build: install everything, build the client, the server bundle, the PGlite template
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV CI=true
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
# Scripts off here: `prepare` (the build) needs the sources, copied below. Every native module
# (argon2, esbuild, rollup, lightningcss) comes as a prebuilt package: nothing is compiled.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# ---------- run: production dependencies and the built files only
FROM ${NODE_IMAGE} AS run
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json /app/package-lock.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/packages/contracts/package.json ./packages/contracts/
COPY --from=build --chown=root:root /app/apps/api/package.json ./apps/api/
COPY --from=build --chown=root:root /app/apps/api/dist ./apps/api/dist
COPY --from=build --chown=root:root /app/apps/api/drizzle ./apps/api/drizzle
COPY --from=build --chown=root:root /app/apps/web/package.json ./apps/web/
COPY --from=build --chown=root:root /app/apps/web/dist ./apps/web/dist
# The data folder (PGlite when no DATABASE_URL, and the stored files) is the only writable place.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# Ready = the process answers and the database answers `select 1` within 2 s (503 otherwise).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM closes the server cleanly (requests in flight finish, new ones get 503).
STOPSIGNAL SIGTERM
CMD ["node", "apps/api/dist/main.js"]
