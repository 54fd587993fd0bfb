using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace RpcCompare.Bindings.Limits;

/// <summary>
/// Sets a Kestrel server's limits from a binding's <see cref="FrameworkConnectionOptions"/>, every
/// one deliberately rather than by default, and keeps Kestrel's per-connection refusal warning out
/// of the log (<see cref="ConnectionIncidents"/> summarises refusals instead).
/// </summary>
public static class KestrelLimits
{
    /// <summary>Kestrel's category for connection events: one warning per refused connection.</summary>
    public const string ConnectionsLogCategory = "Microsoft.AspNetCore.Server.Kestrel.Connections";

    /// <summary>HTTP/2: a connection silent this long is pinged, so a vanished client's streams (a subscription) do not stay open.</summary>
    public static readonly TimeSpan Http2PingDelay = TimeSpan.FromSeconds(30);

    /// <summary>HTTP/2: a ping unanswered this long closes the connection.</summary>
    public static readonly TimeSpan Http2PingTimeout = TimeSpan.FromSeconds(20);

    public static void Apply(KestrelServerLimits limits, FrameworkConnectionOptions options, int maxConnections)
    {
        ArgumentNullException.ThrowIfNull(limits);
        ArgumentNullException.ThrowIfNull(options);
        limits.MaxConcurrentConnections = maxConnections;
        // An upgraded connection (none here) would otherwise escape the limit above.
        limits.MaxConcurrentUpgradedConnections = maxConnections;
        limits.RequestHeadersTimeout = options.HandshakeTimeout;
        limits.KeepAliveTimeout = options.IdleTimeout;
        // Kestrel's defaults, stated: a body or a response trickling slower than 240 bytes/s after a
        // 5-s grace closes the connection (a slow sender cannot hold a connection forever).
        limits.MinRequestBodyDataRate = new MinDataRate(240, TimeSpan.FromSeconds(5));
        limits.MinResponseDataRate = new MinDataRate(240, TimeSpan.FromSeconds(5));
        limits.Http2.KeepAlivePingDelay = Http2PingDelay;
        limits.Http2.KeepAlivePingTimeout = Http2PingTimeout;
    }

    /// <summary>
    /// Keeps Kestrel's connection warnings (one per refused connection) out of a host's log; errors
    /// and worse still pass. Configured on the host's logging, which the binding hosts share.
    /// </summary>
    public static IServiceCollection QuietPerConnectionWarnings(IServiceCollection services) =>
        services.Configure<LoggerFilterOptions>(static options => options.AddFilter(ConnectionsLogCategory, LogLevel.Error));
}
