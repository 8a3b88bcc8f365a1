# syntax=docker/dockerfile:1
# Multi-stage build: dependencies and the build happen in throwaway stages;
# the final image holds production dependencies, the build, the SQL and the
# server, and runs as an unprivileged user.

FROM node:20-bookworm-slim AS base
ENV NODE_ENV=production
WORKDIR /app

FROM base AS deps
COPY package.json package-lock.json ./
RUN npm ci --include=dev --no-audit --no-fund

FROM base AS prod-deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM deps AS build
COPY . .
RUN npx react-router build

FROM base AS runtime
# The embedded default keeps PGlite's data here; mount a volume to keep it.
ENV PGLITE_DATA_DIR=/data/pglite PORT=3000 HOST=0.0.0.0
RUN mkdir -p /data && chown node:node /data
COPY --from=prod-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --chown=node:node package.json server.js ./
COPY --chown=node:node supabase ./supabase
# The legal documents are read at start-up; edit them and rebuild, or mount your own over /app/content/legal.
COPY --chown=node:node content ./content
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
	CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Migrations as their own step (with MIGRATE_ON_START=false):
#   docker run --rm -e DATABASE_URL=... <image> node server.js migrate
# tests/image/runtime.image.ts assembles this stage's files and checks that.
CMD ["node", "server.js"]
