using System.Text.Json;
using System.Text.Json.Nodes;
using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Contracts;

namespace RpcCompare.GeneratedClients.Tests.Node;

/// <summary>
/// A client that knows only what the host serves (clients/node/reflect-call.mjs: services and
/// messages from server reflection, encoded as a protoc-generated proto3 client encodes them)
/// gets what the typed C# client gets, on both gRPC bindings, for every operation called with
/// nothing given, with zero and empty values, and with ordinary ones.
/// </summary>
[Collection(SharedHost.Name)]
public sealed class ReflectionClientTests(HostFixture fixture)
{
    public static TheoryData<string> GrpcBindings() => [BindingNames.GrpcTcp, BindingNames.GrpcUds];

    [Theory]
    [MemberData(nameof(GrpcBindings))]
    public async Task Reflection_OffersEveryContractOperation_HealthAndItself(string binding)
    {
        await using var node = await NodeCallProcess.StartAsync("reflect-call.mjs", fixture.Host.Address(binding));

        var services = node.Offered["services"]!.AsArray().Select(s => s!.GetValue<string>()).Order(StringComparer.Ordinal);
        Assert.Equal(
            ["grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection", .. ZeroValueCalls.Contracts.Keys.Order(StringComparer.Ordinal)],
            services);
        foreach (var (service, contract) in ZeroValueCalls.Contracts)
        {
            var offered = node.Offered["methods"]![service]!.AsArray().Select(m => m!["name"]!.GetValue<string>()).Order(StringComparer.Ordinal);
            Assert.Equal(contract.GetMethods().Select(m => m.Name[..^"Async".Length]).Order(StringComparer.Ordinal), offered);
        }
    }

    [Theory]
    [MemberData(nameof(GrpcBindings))]
    public async Task WriteAt_AtOffsetZero_WritesAtZero(string binding)
    {
        await using var node = await NodeCallProcess.StartAsync("reflect-call.mjs", fixture.Host.Address(binding));
        var hello = "hello"u8.ToArray();

        var answer = await node.CallAsync(ServiceNames.FileService, "WriteAt", new JsonObject { ["Path"] = "data.bin", ["Offset"] = 0, ["Data"] = Convert.ToBase64String(hello) });

        var reply = answer["reply"].Deserialize<WriteAtReply>(ZeroValueCalls.Json)!;
        Assert.Equal((5L, 0L, 1L << 20), (reply.BytesWritten, reply.Offset, reply.FileLength));
        var file = File.OpenRead(Path.Combine(fixture.Host.DataRoot, "data.bin"));
        await using (file)
        {
            var start = new byte[5];
            await file.ReadExactlyAsync(start);
            Assert.Equal(hello, start);
        }
    }

    [Theory]
    [MemberData(nameof(GrpcBindings))]
    public async Task EveryOperation_WithNothingZeroOrOrdinaryValues_AnswersAsTheTypedClient(string binding)
    {
        var address = fixture.Host.Address(binding);
        await using var node = await NodeCallProcess.StartAsync("reflect-call.mjs", address);
        var factory = RpcClientFactory.CreateDefault();
        var mismatches = new List<string>();
        foreach (var (service, operation, request) in ZeroValueCalls.All)
        {
            // Typed first, then the reflection-built client at once: nothing else writes in between,
            // so even a directory listing's modification times agree.
            var expected = await ZeroValueCalls.TypedCallAsync(factory, binding, address, service, operation, request);
            var answer = await node.CallAsync(service, operation, JsonNode.Parse(request)!.AsObject());
            var actual = answer["error"] is { } error
                ? new JsonObject { ["error"] = error["rpcErrorCode"]?.GetValue<string>() ?? $"status {error["status"]}: {error["details"]}" }
                : ZeroValueCalls.Answer(answer["reply"], service, operation);
            if (!JsonNode.DeepEquals(expected, actual))
            {
                mismatches.Add($"{operation} {request}: typed client got {expected.ToJsonString()}, reflection-built client got {actual.ToJsonString()}");
            }
        }

        Assert.True(mismatches.Count == 0, $"{binding}:\n{string.Join('\n', mismatches)}");
    }
}
