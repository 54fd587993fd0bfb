# The Node.js clients (clients/node) in their own container, calling a host container the way a
# team's Node service would: grpc-js with clients/proto, soap with the WSDL wcf-http serves.
#
#   docker run --rm --network container:HOST -v rpccompare:/run/rpccompare IMAGE grpc 127.0.0.1:50051 health
#
# The base is the official Node.js image by default; where no registry is reachable,
# docker/offline.sh passes a local Debian image with this machine's Node.js instead.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE}
WORKDIR /app/clients/node
COPY clients/node/package.json clients/node/package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --no-update-notifier
COPY clients/node/ ./
COPY clients/proto/ /app/clients/proto/
# The unprivileged user of the official image (uid 1000); offline.sh creates the same one.
USER node
ENTRYPOINT ["node", "/app/clients/node/call.mjs"]
