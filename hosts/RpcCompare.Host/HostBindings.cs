using RpcCompare.Bindings;

namespace RpcCompare.Host;

/// <summary>
/// The server side of every binding in this build, by name. Adding a binding is one line here
/// plus its folder under src/Bindings.
/// </summary>
internal static class HostBindings
{
    private static readonly Dictionary<string, Action<IServiceCollection, HostBindingContext>> s_registrations = new(StringComparer.Ordinal)
    {
        [BindingNames.WcfNetTcp] = static (services, host) => services.AddWcfNetTcpBinding(host.Configuration, o =>
            (o.ListenAddress, o.MaxMessageSize, o.MaxConnections) = (host.ListenAddress ?? o.ListenAddress, host.MaxMessageSize, o.MaxConnections ?? host.MaxConnectionsPerBinding)),
        [BindingNames.WcfUds] = static (services, host) => services.AddWcfUdsBinding(host.Configuration, o =>
            (o.Path, o.MaxMessageSize, o.MaxConnections) = (host.SocketPath(o.Path, "wcf-uds"), host.MaxMessageSize, o.MaxConnections ?? host.MaxConnectionsPerBinding)),
        [BindingNames.WcfHttp] = static (services, host) => services.AddWcfHttpBinding(host.Configuration, o =>
            (o.ListenAddress, o.MaxMessageSize, o.MaxConnections) = (host.ListenAddress ?? o.ListenAddress, host.MaxMessageSize, o.MaxConnections ?? host.MaxConnectionsPerBinding)),
        [BindingNames.GrpcTcp] = static (services, host) => services.AddGrpcTcpBinding(host.Configuration, o =>
            (o.ListenAddress, o.MaxMessageSize, o.MaxConnections) = (host.ListenAddress ?? o.ListenAddress, host.MaxMessageSize, o.MaxConnections ?? host.MaxConnectionsPerBinding)),
        [BindingNames.GrpcUds] = static (services, host) => services.AddGrpcUdsBinding(host.Configuration, o =>
            (o.Path, o.MaxMessageSize, o.MaxConnections) = (host.SocketPath(o.Path, "grpc.sock"), host.MaxMessageSize, o.MaxConnections ?? host.MaxConnectionsPerBinding)),
        [BindingNames.FastTcp] = static (services, host) => services.AddFastTcpBinding(host.Configuration, o =>
            (o.ListenAddress, o.MaxMessageSize, o.MaxConnections) = (host.ListenAddress ?? o.ListenAddress, host.MaxMessageSize, o.MaxConnections ?? host.MaxConnectionsPerBinding)),
        [BindingNames.FastUds] = static (services, host) => services.AddFastUdsBinding(host.Configuration, o =>
            (o.Path, o.MaxMessageSize, o.MaxConnections) = (host.SocketPath(o.Path, "fast.sock"), host.MaxMessageSize, o.MaxConnections ?? host.MaxConnectionsPerBinding)),
        [BindingNames.Pipes] = static (services, host) => services.AddPipesBinding(host.Configuration, o =>
            (o.Path, o.MaxMessageSize, o.MaxConnections) = (host.SocketPath(o.Path, "pipes.sock"), host.MaxMessageSize, o.MaxConnections ?? host.MaxConnectionsPerBinding)),
    };

    public static IReadOnlyCollection<string> Offered => [.. BindingNames.All.Where(s_registrations.ContainsKey)];

    /// <summary>Parses a --bindings value; throws with a clear message for names this build cannot serve.</summary>
    public static IReadOnlyList<string> Parse(string value)
    {
        if (IsAll(value))
        {
            return [.. Offered];
        }

        var names = value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

        foreach (var name in names)
        {
            BindingNames.ThrowUnlessOffered(name, Offered);
        }

        return [.. names.Distinct(StringComparer.Ordinal)];
    }

    private static bool IsAll(string value) =>
        value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) is [] or ["all"];

    public static void Add(IServiceCollection services, HostBindingContext host, IEnumerable<string> names)
    {
        foreach (var name in names)
        {
            s_registrations[name](services, host);
        }
    }
}
