# HAProxy from Debian's package with the fleet's configuration (docker/fleet/haproxy.cfg).
# DEBIAN_IMAGE: the standard debian:bookworm-slim, or the local base docker/offline.sh makes.
ARG DEBIAN_IMAGE=debian:bookworm-slim
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends haproxy \
 && rm -rf /var/lib/apt/lists/*
COPY docker/fleet/haproxy.cfg /etc/haproxy/haproxy.cfg
RUN haproxy -c -f /etc/haproxy/haproxy.cfg
EXPOSE 8808 8809 8080 50051 8404
USER haproxy
STOPSIGNAL SIGUSR1
ENTRYPOINT ["haproxy", "-f", "/etc/haproxy/haproxy.cfg", "-db"]
