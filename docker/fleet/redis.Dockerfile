# Redis from Debian's package: the broker the fleet's replicas share push topics through.
# Its log (a stream per topic) is kept on a volume and in an append-only file, so the topics'
# numbers and what a resuming subscriber reads back survive a restart of Redis too.
ARG DEBIAN_IMAGE=debian:bookworm-slim
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/*
EXPOSE 6379
USER redis
ENTRYPOINT ["redis-server", "--bind", "0.0.0.0", "--protected-mode", "no", "--dir", "/var/lib/redis", "--appendonly", "yes", "--save", ""]
