using System.Reflection;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization;
using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Testing;

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
    private static readonly Dictionary<string, Type> s_contracts = new(StringComparer.Ordinal)
    {
        [ServiceNames.FileService] = typeof(IFileService),
        [ServiceNames.CallShapeService] = typeof(ICallShapeService),
        [ServiceNames.PayloadService] = typeof(IPayloadService),
        [ServiceNames.PushService] = typeof(IPushService),
    };

    private static readonly MethodInfo s_create = typeof(RpcClientFactory).GetMethod(nameof(RpcClientFactory.Create))!;

    // The contracts' own member names; int64 from Node arrives as strings, bytes as base64.
    private static readonly JsonSerializerOptions s_json = new() { NumberHandling = JsonNumberHandling.AllowReadingFromString };

    /// <summary>(service, operation, request as JSON): not given, zero/empty, ordinary, refused.</summary>
    public static readonly (string Service, string Operation, string Request)[] Cases =
    [
        (ServiceNames.FileService, "Ping", "{}"),
        (ServiceNames.FileService, "ReadDirectory", "{}"),
        (ServiceNames.FileService, "ReadDirectory", """{"Path":""}"""),
        (ServiceNames.FileService, "ReadDirectory", """{"Path":"files"}"""),
        (ServiceNames.FileService, "ReadDirectory", """{"Path":"../outside"}"""),
        (ServiceNames.FileService, "WriteAt", "{}"),
        (ServiceNames.FileService, "WriteAt", """{"Offset":0}"""),
        (ServiceNames.FileService, "WriteAt", """{"Path":"","Count":0,"Offset":0,"Repeat":0,"Data":""}"""),
        (ServiceNames.FileService, "WriteAt", """{"Path":"data.bin","Offset":0,"Data":"aGVsbG8="}"""),
        (ServiceNames.FileService, "WriteAt", """{"Path":"data.bin","Count":10,"Offset":4096,"Repeat":2}"""),
        (ServiceNames.FileService, "WriteAt", """{"Offset":-1}"""),
        (ServiceNames.FileService, "WriteAt", """{"Path":"missing.bin"}"""),
        (ServiceNames.FileService, "WriteAt", """{"Count":-5}"""),
        (ServiceNames.CallShapeService, "Increment", "{}"),
        (ServiceNames.CallShapeService, "Increment", """{"Value":0}"""),
        (ServiceNames.CallShapeService, "Increment", """{"Value":41}"""),
        (ServiceNames.CallShapeService, "ReturnInt", "{}"),
        (ServiceNames.CallShapeService, "TakeInt", "{}"),
        (ServiceNames.CallShapeService, "TakeInt", """{"Value":7}"""),
        (ServiceNames.CallShapeService, "TakePoint", "{}"),
        (ServiceNames.CallShapeService, "TakePoint", """{"X":1,"Y":-2,"Z":3,"Weight":0.5}"""),
        (ServiceNames.CallShapeService, "VoidCall", "{}"),
        (ServiceNames.PayloadService, "EchoBytes", "{}"),
        (ServiceNames.PayloadService, "EchoBytes", """{"Data":""}"""),
        (ServiceNames.PayloadService, "EchoBytes", """{"Data":"AAEC/w=="}"""),
        (ServiceNames.PayloadService, "SendBytes", "{}"),
        (ServiceNames.PayloadService, "SendBytes", """{"Data":"AAEC"}"""),
        (ServiceNames.PayloadService, "SendRecords", "{}"),
        (ServiceNames.PayloadService, "SendRecords", """{"Records":[{},{"R":1,"G":2,"B":3,"A":4}]}"""),
        (ServiceNames.PayloadService, "SendString", "{}"),
        (ServiceNames.PayloadService, "SendString", """{"Text":""}"""),
        (ServiceNames.PayloadService, "SendString", """{"Text":"h\u00e9llo"}"""),
    ];

    public static TheoryData<string> GrpcBindings() => [BindingNames.GrpcTcp, BindingNames.GrpcUds];

    [Theory]
    [MemberData(nameof(GrpcBindings))]
    public async Task Reflection_OffersEveryContractOperation_HealthAndItself(string binding)
    {
        await using var node = await ReflectionClientProcess.StartAsync(fixture.Host.Address(binding));

        var services = node.Offered["services"]!.AsArray().Select(s => s!.GetValue<string>()).Order(StringComparer.Ordinal);
        Assert.Equal(
            ["grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection", .. s_contracts.Keys.Order(StringComparer.Ordinal)],
            services);
        foreach (var (service, contract) in s_contracts)
        {
            var offered = node.Offered["methods"]![service]!.AsArray().Select(m => m!["name"]!.GetValue<string>()).Order(StringComparer.Ordinal);
            Assert.Equal(contract.GetMethods().Select(m => m.Name[..^"Async".Length]).Order(StringComparer.Ordinal), offered);
        }
    }

    [Theory]
    [MemberData(nameof(GrpcBindings))]
    public async Task WriteAt_AtOffsetZero_WritesAtZero(string binding)
    {
        await using var node = await ReflectionClientProcess.StartAsync(fixture.Host.Address(binding));
        var hello = "hello"u8.ToArray();

        var answer = await node.CallAsync(ServiceNames.FileService, "WriteAt", new JsonObject { ["Path"] = "data.bin", ["Offset"] = 0, ["Data"] = Convert.ToBase64String(hello) });

        var reply = answer["reply"].Deserialize<WriteAtReply>(s_json)!;
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
        await using var node = await ReflectionClientProcess.StartAsync(address);
        var factory = RpcClientFactory.CreateDefault();
        var mismatches = new List<string>();
        foreach (var (service, operation, request) in Cases)
        {
            // Typed first, then the reflection-built client at once: nothing else writes in between,
            // so even a directory listing's modification times agree.
            var expected = await TypedCallAsync(factory, binding, address, service, operation, request);
            var actual = Canonical(await node.CallAsync(service, operation, JsonNode.Parse(request)!.AsObject()), service, operation);
            if (!JsonNode.DeepEquals(expected, actual))
            {
                mismatches.Add($"{operation} {request}: typed client got {expected.ToJsonString()}, reflection-built client got {actual.ToJsonString()}");
            }
        }

        Assert.True(mismatches.Count == 0, $"{binding}:\n{string.Join('\n', mismatches)}");
    }

    /// <summary>The typed client's answer: {"reply": canonical reply} or {"error": RpcErrorCode name}.</summary>
    private static async Task<JsonObject> TypedCallAsync(RpcClientFactory factory, string binding, string address, string service, string operation, string request)
    {
        var contract = s_contracts[service];
        var client = s_create.MakeGenericMethod(contract).Invoke(factory, [binding, address])!;
        try
        {
            var method = contract.GetMethod(operation + "Async")!;
            object?[] arguments = method.GetParameters() is [var parameter] ? [JsonSerializer.Deserialize(request, parameter.ParameterType, s_json)] : [];
            var task = (Task)method.Invoke(client, arguments)!;
            await task.Bounded();
            var result = method.ReturnType.IsGenericType ? method.ReturnType.GetProperty("Result")!.GetValue(task) : null;
            return new JsonObject { ["reply"] = CanonicalReply(JsonSerializer.SerializeToNode(result, s_json)) };
        }
        catch (RpcServiceException e)
        {
            return new JsonObject { ["error"] = e.Code.ToString() };
        }
        finally
        {
            await RpcClientFactory.ReleaseAsync(client);
        }
    }

    /// <summary>Node's answer read back through the contract's reply type, in the typed answer's form.</summary>
    private static JsonObject Canonical(JsonObject answer, string service, string operation)
    {
        if (answer["error"] is { } error)
        {
            return new JsonObject { ["error"] = error["rpcErrorCode"]?.GetValue<string>() ?? $"status {error["status"]}: {error["details"]}" };
        }

        var returnType = s_contracts[service].GetMethod(operation + "Async")!.ReturnType;
        var reply = returnType.IsGenericType ? JsonSerializer.SerializeToNode(answer["reply"].Deserialize(returnType.GetGenericArguments()[0], s_json), s_json) : null;
        return new JsonObject { ["reply"] = CanonicalReply(reply) };
    }

    /// <summary>
    /// Drops members holding their default (null, 0, "", false, empty array): proto3 replies carry
    /// no presence for them, so a null and an empty array, or a 0 and a missing field, are the
    /// same answer on this wire.
    /// </summary>
    private static JsonNode CanonicalReply(JsonNode? reply)
    {
        switch (reply)
        {
            case JsonObject members:
                var result = new JsonObject();
                foreach (var (name, value) in members)
                {
                    if (!IsDefault(value))
                    {
                        result[name] = CanonicalReply(value);
                    }
                }

                return result;
            case JsonArray items:
                return new JsonArray([.. items.Select(CanonicalReply)]);
            case null:
                return new JsonObject();
            default:
                return reply.DeepClone();
        }
    }

    private static bool IsDefault(JsonNode? value) => value switch
    {
        null => true,
        JsonArray items => items.Count == 0,
        JsonValue scalar when scalar.TryGetValue<string>(out var text) => text.Length == 0,
        JsonValue scalar when scalar.TryGetValue<bool>(out var flag) => !flag,
        JsonValue scalar when scalar.TryGetValue<double>(out var number) => number == 0,
        _ => false,
    };
}
