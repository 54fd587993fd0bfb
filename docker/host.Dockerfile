# The RpcCompare host: every binding of this build in one container.
#
# Base images are the standard .NET ones by default. Where no registry is reachable,
# docker/offline.sh builds equivalent local images and passes them in through these arguments.
ARG SDK_IMAGE=mcr.microsoft.com/dotnet/sdk:10.0
ARG RUNTIME_IMAGE=mcr.microsoft.com/dotnet/aspnet:10.0

FROM ${SDK_IMAGE} AS build
# Marks the build stage, whose image is left behind unnamed, so scripts can prune exactly these.
LABEL rpccompare.stage=build
WORKDIR /src
COPY . .
RUN dotnet publish hosts/RpcCompare.Host -c Release -o /out/host \
 && dotnet publish clients/RpcCompare.Cli -c Release -o /out/rpcc

FROM ${RUNTIME_IMAGE}
WORKDIR /app
COPY --from=build /out/host ./
COPY --from=build /out/rpcc ./rpcc/
# Socket files and the endpoints file live on a volume that clients mount. The directory belongs
# to the app user, whom the host runs as.
RUN mkdir -p /run/rpccompare && chown "$APP_UID" /run/rpccompare
VOLUME /run/rpccompare
ENV RpcCompare__SocketDirectory=/run/rpccompare \
    RpcCompare__EndpointsFile=/run/rpccompare/endpoints.json \
    DOTNET_GCDynamicAdaptationMode=0
USER $APP_UID
# No TCP binding is in this build (docs/packages.md), so no port is exposed. The health check
# calls the empty operation over the pipes binding with rpcc, as a client would.
HEALTHCHECK --interval=10s --timeout=5s --start-period=15s --retries=3 \
  CMD ["dotnet", "/app/rpcc/rpcc.dll", "call", "--binding", "pipes", "--endpoints", "/run/rpccompare/endpoints.json", "Ping"]
# SIGTERM (docker stop) stops the host cleanly: listeners close, socket files are removed.
ENTRYPOINT ["dotnet", "/app/RpcCompare.Host.dll"]
