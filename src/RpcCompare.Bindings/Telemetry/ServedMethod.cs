namespace RpcCompare.Bindings.Telemetry;

/// <summary>
/// One operation as one binding serves it, named once for its spans and measurements: built when the
/// binding sets the operation up, so a call only hands it over.
/// </summary>
public sealed class ServedMethod
{
    /// <param name="binding">The binding's name (<see cref="BindingNames"/>).</param>
    /// <param name="system">The <c>rpc.system</c>: <see cref="RpcSystems"/>.</param>
    /// <param name="service">The <c>rpc.service</c>: the contract's service name (rpccompare.v1.FileService).</param>
    /// <param name="method">The <c>rpc.method</c>: the operation's name (Ping).</param>
    public ServedMethod(string binding, string system, string service, string method)
    {
        Binding = binding;
        Service = service;
        Method = method;
        SpanName = service + "/" + method;
        Tags =
        [
            new("rpc.system", system),
            new("rpc.service", service),
            new("rpc.method", method),
            new("rpccompare.binding", binding),
        ];
    }

    public string Binding { get; }

    public string Service { get; }

    public string Method { get; }

    /// <summary>"{rpc.service}/{rpc.method}", as the conventions name a server span.</summary>
    public string SpanName { get; }

    internal KeyValuePair<string, object?>[] Tags { get; }
}

/// <summary>The <c>rpc.system</c> of each binding family: the conventions' own names where they have one.</summary>
public static class RpcSystems
{
    public const string Wcf = "dotnet_wcf";
    public const string Grpc = "grpc";
    public const string Fast = "rpccompare_fast";
    public const string Pipes = "rpccompare_pipes";
}
