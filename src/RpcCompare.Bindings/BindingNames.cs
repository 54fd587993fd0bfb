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
    public const string InProc = "inproc";

    /// <summary>Every binding of the design, network bindings first, in report order.</summary>
    public static IReadOnlyList<string> All { get; } = [WcfNetTcp, WcfUds, WcfHttp, GrpcTcp, GrpcUds, Pipes, InProc];

    /// <summary>
    /// Bindings of the design that this build cannot offer, with the reason. They are refused by
    /// name with this reason rather than left unknown, so nobody mistakes a missing framework for a typo.
    /// </summary>
    public static IReadOnlyDictionary<string, string> Unavailable { get; } = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        [WcfNetTcp] = CoreWcfMissing,
        [WcfUds] = CoreWcfMissing,
        [WcfHttp] = CoreWcfMissing,
    };

    private const string CoreWcfMissing =
        "not in this build: CoreWCF.* and System.ServiceModel.Primitives do not restore from this machine's package source (see docs/packages.md)";


    /// <summary>Throws a clear error for a name that is unknown or unavailable in this build.</summary>
    public static void ThrowUnlessOffered(string name, IEnumerable<string> offered)
    {
        ArgumentNullException.ThrowIfNull(offered);
        if (offered.Contains(name, StringComparer.Ordinal))
        {
            return;
        }

        if (Unavailable.TryGetValue(name, out var reason))
        {
            throw new NotSupportedException($"Binding '{name}' is {reason}.");
        }

        throw new ArgumentException($"Unknown binding '{name}'. Bindings offered: {string.Join(", ", offered)}.", nameof(name));
    }
}
