#!/usr/bin/env bash
# Regenerates every service description and every checked-in generated client from the contracts:
#   clients/proto/*.proto        the gRPC binding's ContractSchema (what reflection serves too)
#   clients/wsdl/*.wsdl          fetched from a wcf-http binding started on a free loopback port
#   clients/generated/RpcCompare.Generated.Wcf/*.cs   dotnet-svcutil over clients/wsdl
# The Grpc.Tools client (clients/generated/RpcCompare.Generated.Grpc) is generated at build time
# and the Node.js clients (clients/node) load the .proto and WSDL at run time: nothing to do.
# Tests fail while any of these files is stale. Run from anywhere; commit what changes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
dotnet run --project clients/RpcCompare.SchemaExport -- clients
bash clients/generated/RpcCompare.Generated.Wcf/svcutil.sh
git status --short -- clients/proto clients/wsdl clients/generated
