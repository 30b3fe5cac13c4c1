# syntax=docker/dockerfile:1
# Gatehouse images, built in stages:
#   deps       all dependencies (dev included) + the generated Prisma client
#   build      compiles apps/libs/scripts to dist/ (SWC) and the dashboard as a Next.js standalone server
#   prod-deps  production dependencies only, without install scripts (nothing at runtime needs them)
#   app        api, worker, gateway and the one-shot migrate job: one image, the command picks the process
#   dashboard  the Next.js standalone server (no full node_modules)
# Both runtime targets run as the unprivileged `node` user and own none of their code.
#
#   docker build --target app -t gatehouse-app .
#   docker build --target dashboard -t gatehouse-dashboard .
# docker-compose.yml builds both and runs each service with its command.

ARG NODE_IMAGE=node:20.20-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /src
ENV NEXT_TELEMETRY_DISABLED=1 \
    PRISMA_SCHEMA_ENGINE_BINARY=/bin/false \
    NX_DAEMON=false \
    NX_NO_CLOUD=true
# postinstall runs `prisma generate`, which needs the schema and prisma.config.ts (and only the bundled wasm).
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma/schema.prisma prisma/schema.prisma
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN node scripts/build.mjs \
 && DASHBOARD_STANDALONE=1 node_modules/.bin/next build apps/dashboard

FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1
WORKDIR /app

FROM runtime AS app
COPY --from=prod-deps /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/package.json ./package.json
# The migrate job applies these SQL files; the apps never read them.
COPY --from=build /src/prisma/migrations ./prisma/migrations
USER node
EXPOSE 4000 4001 4002
CMD ["node", "dist/apps/api/src/main.js"]

FROM runtime AS dashboard
# The standalone output mirrors the repository layout from its tracing root (the repo root).
COPY --from=build /src/apps/dashboard/.next/standalone ./
COPY --from=build /src/apps/dashboard/.next/static ./apps/dashboard/.next/static
# Next.js writes its render cache at runtime: the only directory the node user may write.
RUN mkdir -p apps/dashboard/.next/cache && chown node:node apps/dashboard/.next/cache
ENV HOSTNAME=0.0.0.0
USER node
EXPOSE 3000
# The standalone server reads PORT; Gatehouse's variable is DASHBOARD_PORT.
CMD ["sh", "-c", "PORT=\"${DASHBOARD_PORT:-3000}\" exec node apps/dashboard/server.js"]
