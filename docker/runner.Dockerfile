# The comparison runner, measuring a host container through the shared volume
# (--host /run/rpccompare/endpoints.json). Same base-image arguments as host.Dockerfile.
ARG SDK_IMAGE=mcr.microsoft.com/dotnet/sdk:10.0
ARG RUNTIME_IMAGE=mcr.microsoft.com/dotnet/aspnet:10.0

# NuGet packages to restore from besides the package source: empty unless the build is given a
# "nuget" build context (docker/offline.sh and compose pass ../shared/nuget when it exists, for
# package sources that lack CoreWCF, gRPC for .NET or protobuf-net.Grpc). Never in the repository.
FROM scratch AS nuget

FROM ${SDK_IMAGE} AS build
# Marks the build stage, whose image is left behind unnamed, so scripts can prune exactly these.
LABEL rpccompare.stage=build
# npm restores Chart.js, which the HTML reports inline (perf/RpcCompare.Perf.Reporting/Html).
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY --from=nuget / /nuget/
ENV RPCCOMPARE_EXTRA_NUGET_SOURCE=/nuget
COPY . .
RUN dotnet publish perf/RpcCompare.Runner -c Release -o /out/runner

FROM ${RUNTIME_IMAGE}
WORKDIR /app
COPY --from=build /out/runner ./
# Runs as the same user as the host, so both can use the host's data root on the shared volume.
USER $APP_UID
ENTRYPOINT ["dotnet", "/app/RpcCompare.Runner.dll"]
CMD ["--host", "/run/rpccompare/endpoints.json", "--output", "/run/rpccompare/results"]
