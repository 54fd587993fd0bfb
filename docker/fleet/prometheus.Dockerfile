# Prometheus from Debian's package, scraping every replica's /metrics (the host's --metrics-port)
# and HAProxy's (docker/fleet/prometheus.yml).
ARG DEBIAN_IMAGE=debian:bookworm-slim
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends prometheus \
 && rm -rf /var/lib/apt/lists/*
COPY docker/fleet/prometheus.yml /etc/prometheus/prometheus.yml
EXPOSE 9090
USER prometheus
ENTRYPOINT ["prometheus", "--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/var/lib/prometheus/metrics2", "--web.listen-address=:9090"]
