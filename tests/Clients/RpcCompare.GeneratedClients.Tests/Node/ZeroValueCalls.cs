using System.Reflection;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization;
using RpcCompare.Client;
using RpcCompare.Contracts;
using RpcCompare.Contracts.Push;
using RpcCompare.Testing;

namespace RpcCompare.GeneratedClients.Tests.Node;

/// <summary>
/// Calls with nothing given, with zero and empty values, with ordinary values and refused ones, as
/// JSON requests in the contracts' member names; the typed C# client's answer to each; and the
/// form in which a client's answer is compared with it.
/// </summary>
internal static class ZeroValueCalls
{
    public static readonly IReadOnlyDictionary<string, Type> Contracts = new Dictionary<string, Type>(StringComparer.Ordinal)
    {
        [ServiceNames.FileService] = typeof(IFileService),
        [ServiceNames.CallShapeService] = typeof(ICallShapeService),
        [ServiceNames.PayloadService] = typeof(IPayloadService),
        [ServiceNames.FileTransferService] = typeof(IFileTransferService),
        [ServiceNames.PushService] = typeof(IPushService),
    };

    /// <summary>(service, operation, request).</summary>
    public static readonly (string Service, string Operation, string Request)[] All =
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

    // The contracts' own member names; int64 from Node's gRPC client arrives as strings, bytes as base64.
    public static readonly JsonSerializerOptions Json = new() { NumberHandling = JsonNumberHandling.AllowReadingFromString };

    private static readonly MethodInfo s_create = typeof(RpcClientFactory).GetMethod(nameof(RpcClientFactory.Create))!;

    public static MethodInfo Operation(string service, string operation) => Contracts[service].GetMethod(operation + "Async")!;

    /// <summary>The reply type of an operation, or null for one that returns nothing.</summary>
    public static Type? ReplyType(string service, string operation) =>
        Operation(service, operation).ReturnType is { IsGenericType: true } task ? task.GetGenericArguments()[0] : null;

    /// <summary>The typed client's answer: {"reply": canonical reply} or {"error": RpcErrorCode name}.</summary>
    public static async Task<JsonObject> TypedCallAsync(RpcClientFactory factory, string binding, string address, string service, string operation, string request)
    {
        var client = s_create.MakeGenericMethod(Contracts[service]).Invoke(factory, [binding, address])!;
        try
        {
            var method = Operation(service, operation);
            object?[] arguments = method.GetParameters() is [var parameter] ? [JsonSerializer.Deserialize(request, parameter.ParameterType, Json)] : [];
            var task = (Task)method.Invoke(client, arguments)!;
            await task.Bounded();
            var result = method.ReturnType.IsGenericType ? method.ReturnType.GetProperty("Result")!.GetValue(task) : null;
            return new JsonObject { ["reply"] = CanonicalReply(JsonSerializer.SerializeToNode(result, Json)) };
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

    /// <summary>A reply read back through the operation's reply type, in the typed answer's form.</summary>
    public static JsonObject Answer(JsonNode? reply, string service, string operation) =>
        new() { ["reply"] = CanonicalReply(ReplyType(service, operation) is { } type ? JsonSerializer.SerializeToNode(reply.Deserialize(type, Json), Json) : null) };

    /// <summary>
    /// Drops members holding their default (null, 0, "", false, empty array): neither proto3 replies
    /// nor the product's SOAP replies tell a null from an empty array or a 0 from a missing member.
    /// Numbers compare as doubles: a JavaScript client holds an int64 such as a file's modification
    /// ticks (~6.4e17) only to double precision.
    /// </summary>
    public static JsonNode CanonicalReply(JsonNode? reply)
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
            case JsonValue number when number.GetValueKind() == JsonValueKind.Number:
                return JsonValue.Create(number.GetValue<double>());
            default:
                return reply.DeepClone();
        }
    }

    private static bool IsDefault(JsonNode? value) => value switch
    {
        null => true,
        JsonArray items => items.Count == 0,
        JsonValue scalar when scalar.GetValueKind() == JsonValueKind.String => scalar.GetValue<string>().Length == 0,
        JsonValue scalar when scalar.GetValueKind() == JsonValueKind.False => true,
        JsonValue scalar when scalar.GetValueKind() == JsonValueKind.Number => scalar.GetValue<double>() == 0,
        _ => false,
    };
}
