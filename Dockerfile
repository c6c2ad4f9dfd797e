# The gateway's image: one stage installs everything and builds, the runtime keeps the build output
# and production dependencies only. Both bases are arguments so that machines without a registry can
# use locally made equivalents (scripts/container/base-image.sh); any Debian-based Node 20 works.
ARG BUILD_IMAGE=node:20-bookworm
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${BUILD_IMAGE} AS build
WORKDIR /app
# better-sqlite3 compiles against the headers of the image's own Node when no prebuilt binary can be
# fetched; pointing node-gyp at them spares a download from nodejs.org.
RUN echo "nodedir=$(node -p 'require("path").resolve(process.execPath, "../..")')" >> /root/.npmrc
COPY package.json package-lock.json ./
# Behind a TLS-intercepting proxy, pass its CA as a build secret (--secret id=extra_ca,src=FILE): it
# is mounted for this step only and stays out of every layer. Without it Node ignores the missing file.
RUN --mount=type=cache,target=/root/.npm --mount=type=secret,id=extra_ca \
  NODE_EXTRA_CA_CERTS=/run/secrets/extra_ca npm ci --no-audit --no-fund --loglevel=error
COPY . .
# Built without the test tree (.dockerignore). Then dev dependencies leave, and the production ones
# only the console's build used (scripts/container/server-deps.mjs), before the copy below.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund --loglevel=error \
  && node scripts/container/server-deps.mjs && rm -rf /root/.npmrc node_modules/.cache

FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    SQLITE_PATH=/data/gateway.db
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The SQLite file (and nothing else) lives in /data, writable by the unprivileged user only.
RUN mkdir -p /data && chown 1000:1000 /data
VOLUME /data
USER 1000:1000
EXPOSE 3000
# Node itself, since slim images have no curl; /healthz answers whenever the process serves.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node as PID 1 in exec form: SIGTERM reaches the gateway's handler, which drains calls in flight (up
# to SHUTDOWN_TIMEOUT, 30 s) and exits 0; give `docker stop` a longer grace period (-t / stop_grace_period).
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "dist/server/main.js"]
