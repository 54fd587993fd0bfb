using System.Linq;
using RpcCompare.Fast.Generator.Model;

namespace RpcCompare.Fast.Generator;

/// <summary>
/// Writes a contract's proxy: each method of the interface implemented explicitly, building its
/// request from the arguments and taking its result and out and ref values from the reply, through
/// RpcCompare.Bindings.Fast.Generated.FastGeneratedClient by operation index.
/// </summary>
internal static class ProxyWriter
{
    public static void Write(CodeText code, ContractModel contract)
    {
        code.Open($"private sealed class Client : {contract.TypeName}");
        code.Line($"private readonly {ContractWriter.Runtime}FastGeneratedClient _client;");
        code.Line();
        code.Line($"public Client({ContractWriter.Runtime}FastGeneratedClient client) => _client = client;");
        foreach (var method in contract.Methods)
        {
            code.Line();
            var parameters = string.Join(", ", method.Parameters.Select(p => p.Passing switch
            {
                Passing.Ref => $"ref {p.Type} {p.Name}",
                Passing.Out => $"out {p.Type} {p.Name}",
                _ => $"{p.Type} {p.Name}",
            }));
            code.Open($"{method.ReturnType} {method.Declaring}.{method.Name}({parameters})");
            if (method.Form == Form.NotCalled)
            {
                code.Line($"throw new global::System.NotSupportedException(\"{method.Name.TrimStart('@')} is not an operation the fast binding calls (a Begin/End method, or a method without [OperationContract]).\");");
            }
            else
            {
                WriteCall(code, contract.Operations[method.Operation], method);
            }

            code.Close();
        }

        code.Close();
    }

    /// <summary>One form's call: the request from the arguments, the result and the out and ref values from the reply.</summary>
    private static void WriteCall(CodeText code, OperationModel operation, MethodModel method)
    {
        var index = method.Operation;
        var (request, reply) = (operation.Request, operation.Reply);
        // The reply's local (and lambda parameter): a name none of the method's parameters has.
        var replyName = "reply";
        while (method.Parameters.Any(p => p.Name.TrimStart('@') == replyName))
        {
            replyName += "_";
        }

        var token = method.Parameters.FirstOrDefault(p => p.Passing == Passing.CancellationToken)?.Name ?? "default";
        var message = request.Shape switch
        {
            Shape.Empty => $"{ContractWriter.Empty}.Instance",
            Shape.Bare or Shape.Chunks => method.Parameters.First(p => p.Passing == Passing.In).Name,
            _ => $"new {request.Type} {{ {string.Join(", ", request.Fields.Select(f => $"{f.Name} = {f.Name}"))} }}",
        };
        var types = $"{request.Type}, {reply.Type}";
        if (method.Form == Form.Sync)
        {
            var assign = reply.Shape == Shape.Empty && method.Result is null ? "" : $"var {replyName} = ";
            code.Line($"{assign}this._client.Call<{types}>({index}, {message}, {token});");
            foreach (var output in method.Parameters.Where(p => p.Passing is Passing.Ref or Passing.Out))
            {
                code.Line($"{output.Name} = {ContractWriter.Read(replyName, reply.Fields.First(f => f.Name == output.Name))};");
            }

            if (method.Result is not null)
            {
                code.Line(reply.Shape == Shape.Envelope ? $"return {ContractWriter.Read(replyName, reply.Fields[0])};" : $"return {replyName};");
            }

            return;
        }

        var (result, map) = (method.Result, reply.Shape) switch
        {
            (null, _) => (ContractWriter.Empty, reply.Shape == Shape.Empty ? "null" : $"static (_, _) => {ContractWriter.Empty}.Instance"),
            (_, Shape.Envelope) => (method.Result, $"static ({replyName}, _) => {ContractWriter.Read(replyName, reply.Fields[0])}"),
            _ => (method.Result, "null"),
        };
        var start = $"this._client.CallAsync<{types}, {result}>({index}, {message}, {map}, {token})";
        code.Line(method.Form == Form.Task ? $"return {start};" : $"return new {method.ReturnType}({start});");
    }
}
