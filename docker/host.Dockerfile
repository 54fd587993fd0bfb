# The RpcCompare host: every binding in one container.
#
# Base images are the standard .NET ones by default. Where no registry is reachable,
# docker/offline.sh builds equivalent local images and passes them in through these arguments.
ARG SDK_IMAGE=mcr.microsoft.com/dotnet/sdk:10.0
ARG RUNTIME_IMAGE=mcr.microsoft.com/dotnet/aspnet:10.0

# NuGet packages to restore from besides the package source: empty unless the build is given a
# "nuget" build context (docker/offline.sh and compose pass ../shared/nuget when it exists, for
# package sources that lack CoreWCF, gRPC for .NET or protobuf-net.Grpc). Never in the repository.
FROM scratch AS nuget

FROM ${SDK_IMAGE} AS build
# Marks the build stage, whose image is left behind unnamed, so scripts can prune exactly these.
LABEL rpccompare.stage=build
WORKDIR /src
COPY --from=nuget / /nuget/
ENV RPCCOMPARE_EXTRA_NUGET_SOURCE=/nuget
COPY . .
RUN dotnet publish hosts/RpcCompare.Host -c Release -o /out/host \
 && dotnet publish clients/RpcCompare.Cli -c Release -o /out/rpcc

FROM ${RUNTIME_IMAGE}
WORKDIR /app
COPY --from=build /out/host ./
COPY --from=build /out/rpcc ./rpcc/
# Socket files and the endpoints file live on a volume that clients mount. The directory belongs
# to the app user, whom the host runs as.
# /srv/rpccompare: where the fleet's replicas mount their shared data root (docker/fleet/compose.yaml); a new
# named volume takes this directory's owner under Docker, so the host's user can write it.
RUN mkdir -p /run/rpccompare /var/lib/rpccompare /srv/rpccompare && chown "$APP_UID" /run/rpccompare /var/lib/rpccompare /srv/rpccompare && chmod 0700 /var/lib/rpccompare
VOLUME /run/rpccompare
# The host's state: its self-signed TLS certificate and key, kept across restarts so pins stay valid.
VOLUME /var/lib/rpccompare
# TCP bindings listen on every address of the container's own network namespace, on fixed ports
# that compose publishes on the host's loopback only; with TLS on, as any host listening beyond
# loopback must (a self-signed certificate made in the state directory on first start: its
# thumbprint is in the endpoints file, its public part in /run/rpccompare/tls-certificate.pem).
# Tls__CertificateFile (and Tls__KeyFile) give a certificate of your own instead.
ENV RpcCompare__SocketDirectory=/run/rpccompare \
    RpcCompare__EndpointsFile=/run/rpccompare/endpoints.json \
    RpcCompare__StateDirectory=/var/lib/rpccompare \
    RpcCompare__ListenAddress=0.0.0.0 \
    Tls__Enabled=true \
    WcfNetTcp__Port=8808 \
    WcfHttp__Port=8080 \
    GrpcTcp__Port=50051 \
    FastTcp__Port=8809 \
    DOTNET_GCDynamicAdaptationMode=0
EXPOSE 8808 8809 8080 50051
USER $APP_UID
# The health check asks the standard gRPC health service (grpc.health.v1), as a load balancer or
# orchestrator would; rpcc exits 0 only when the server reports SERVING (over TLS, trusting the
# certificate the endpoints file names).
HEALTHCHECK --interval=10s --timeout=5s --start-period=15s --retries=3 \
  CMD ["dotnet", "/app/rpcc/rpcc.dll", "health", "--binding", "grpc-tcp", "--endpoints", "/run/rpccompare/endpoints.json"]
# SIGTERM (docker stop) stops the host cleanly: listeners close, socket files are removed.
ENTRYPOINT ["dotnet", "/app/RpcCompare.Host.dll"]
