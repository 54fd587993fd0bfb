namespace RpcCompare.Bindings;

/// <summary>The names users type (--bindings, rpcc --binding) and reports print.</summary>
public static class BindingNames
{
    public const string WcfNetTcp = "wcf-nettcp";
    public const string WcfUds = "wcf-uds";
    public const string WcfHttp = "wcf-http";
    public const string GrpcTcp = "grpc-tcp";
    public const string GrpcUds = "grpc-uds";
    public const string Pipes = "pipes";

    /// <summary>RpcCompare's own binding over a Unix socket (src/Bindings/RpcCompare.Bindings.Fast, docs/design/fast-binding.md).</summary>
    public const string FastUds = "fast-uds";

    /// <summary>The same binding over TCP, plaintext (loopback unless the host allows otherwise; not with TLS).</summary>
    public const string FastTcp = "fast-tcp";
    public const string InProc = "inproc";

    /// <summary>Every binding of the design, network bindings first, in report order.</summary>
    public static IReadOnlyList<string> All { get; } = [WcfNetTcp, WcfUds, WcfHttp, GrpcTcp, GrpcUds, FastTcp, FastUds, Pipes, InProc];

    /// <summary>
    /// Whether <paramref name="binding"/> travels over a TCP connection; the others travel over a Unix socket
    /// (on Linux, pipes too) or do not leave the process.
    /// </summary>
    public static bool TravelsOverTcp(string binding) => binding is WcfNetTcp or WcfHttp or GrpcTcp or FastTcp;

    /// <summary>Throws a clear error, listing the offered names, for a name that is not offered.</summary>
    public static void ThrowUnlessOffered(string name, IEnumerable<string> offered)
    {
        ArgumentNullException.ThrowIfNull(offered);
        if (offered.Contains(name, StringComparer.Ordinal))
        {
            return;
        }

        throw new ArgumentException($"Unknown binding '{name}'. Bindings offered: {string.Join(", ", offered)}.", nameof(name));
    }
}
