# Owns the Sangam container image (CONTRACT §15, issue #41). Two stages build and assemble; the default
# target `sangam` is the server, non-root, with the `sangam` CLI on PATH, production dependencies only
# and without the partner emulators. The target `partner-sim` adds them (`sangam partner-sim`), for
# compose.live.yaml and tests; nothing else differs.
#
#   docker build -t sangam .                                   # or podman build --format docker
#   docker build --target partner-sim -t sangam-partner-sim .
#
# Behind a TLS-intercepting proxy, hand the build its CA bundle; it is mounted for the npm install
# only, never stored in a layer, and its absence is no error:
#   podman build --secret id=ca,src="$NODE_EXTRA_CA_CERTS" …
# BASE is any image with Node 24 and npm on a glibc system with useradd (deploy/offline-images.sh
# passes one built from Debian packages).
ARG BASE=node:24-bookworm-slim

FROM ${BASE} AS build
WORKDIR /src
# The whole tree `npm run build` reads (.dockerignore keeps out what it does not), wherever the sources
# sit in it; what the server does not run is taken out below.
COPY . .
RUN --mount=type=secret,id=ca --mount=type=cache,target=/root/.npm \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi \
 && npm ci --ignore-scripts --no-audit --no-fund \
 && npm run build \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund
# Tests and benchmarks go. /out/app: what the server runs (package.json carries "type": "module").
# /out/sim: the emulators (the workspace partner-sim/, built into dist/partner-sim; the CLI loads them
# only for `sangam partner-sim`). Workspace links whose sources stay behind are dropped.
RUN rm -rf dist/test dist/bench dist/.tsbuildinfo dist/.build-stamp \
 && find dist \( -name "*.test.js" -o -name "*.test.js.map" \) -delete \
 && mkdir -p /out/app /out/sim/dist \
 && mv dist/partner-sim /out/sim/dist/ \
 && cp -a package.json bin dist node_modules /out/app/ \
 && find /out/app/node_modules -xtype l -delete

FROM ${BASE} AS runtime
RUN groupadd --system sangam \
 && useradd --system --gid sangam --home-dir /app --no-create-home --shell /usr/sbin/nologin sangam \
 && mkdir -p /data && chown sangam:sangam /data
COPY --from=build /out/app /app
RUN ln -s /app/bin/sangam.js /usr/local/bin/sangam
WORKDIR /app
# The embedded store (no DATABASE_URL) and its admin socket live in /data: mount a volume there.
ENV NODE_ENV=production SANGAM_DATA_DIR=/data HOST=0.0.0.0 PORT=8080
USER sangam
EXPOSE 8080
# The server drains in-flight requests and closes the store on SIGTERM (src/server.ts); node is PID 1
# and handles it itself.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--enable-source-maps", "dist/src/server.js"]

FROM runtime AS partner-sim
COPY --from=build /out/sim/ /app/
# An emulator keeps its books under ./data/partner-sim/<kind> of the working directory.
WORKDIR /data
EXPOSE 9090
HEALTHCHECK NONE
CMD ["sangam", "partner-sim", "--host", "0.0.0.0", "--port", "9090"]

FROM runtime AS sangam
