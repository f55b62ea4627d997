# syntax=docker/dockerfile:1
# Engram's image (docs/deploy.md). Three stages: the dependencies with the models cache, the
# esbuild build of src/, and a slim runtime with production packages only, run as `node`.

ARG NODE_VERSION=20

# --- deps: node_modules (npm ci) and the GloVe table in .cache/models -----------------------
FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
# .npmrc keeps onnxruntime-node-install=skip: its CPU binary ships in the package, and the
# install script would otherwise fetch CUDA libraries.
COPY package.json package-lock.json .npmrc tsconfig.json ./
# npm ci's postinstall runs scripts/prune-runtime-binaries.ts and scripts/prepare-models.ts,
# which import from src/.
COPY scripts ./scripts
COPY src ./src
RUN npm ci
# Built at image build, failing it if the vectors cannot be fetched (postinstall only warns):
# the server never downloads anything at run time.
RUN npm run setup:models

# --- build: dist/ (what `npm start` runs) ---------------------------------------------------
FROM deps AS build
RUN node scripts/build.mjs && npm prune --omit=dev

# --- runtime ---------------------------------------------------------------------------------
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# GLIBC_TUNABLES: glibc's malloc keeps its thresholds fixed instead of raising them after the
# large blocks a Node process frees at start, which strands memory in its heaps: the idle server
# is 30–50 MB smaller (docs/deploy.md; bench:startup's `image` command).
ENV NODE_ENV=production \
    GLIBC_TUNABLES=glibc.malloc.trim_threshold=131072 \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    ROLES=api,worker
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./package.json
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/.cache/models ./.cache/models
COPY --from=build --chown=root:root /app/dist ./dist
COPY --chown=root:root migrations ./migrations
# Read from the checkout at run time: PGlite's first-start initialisation runs this file in a
# child process (src/platform/db/pglite-init.ts).
COPY --chown=root:root src/platform/db/pglite-init.mjs ./src/platform/db/pglite-init.mjs
# The code is read-only to the server; only DATA_DIR (the embedded store, the generated
# bootstrap key, fitted model statistics) is writable.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
# /health answers as soon as the port is open (/ready waits for the store and the models).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# dist/main.js directly (not `npm start`): no rebuild check, and signals reach the server. The V8
# flag is the one `npm start` gives the server (scripts/launch.mjs NODE_FLAGS: a smaller young
# generation, ~30 MB less resident).
CMD ["node", "--max-semi-space-size=4", "dist/main.js"]
