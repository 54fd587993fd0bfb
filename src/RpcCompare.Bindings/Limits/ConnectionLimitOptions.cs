namespace RpcCompare.Bindings.Limits;

/// <summary>The connection limit every network binding's options carry, each under its own section.</summary>
public abstract class ConnectionLimitOptions
{
    /// <summary>
    /// Most connections the binding serves at once; past it a new connection is refused at once
    /// and the binding's other connections, and the other bindings, go on. Defaults to null: the
    /// process's open-file limit less a tenth of it, shared equally by the bindings the host serves
    /// (3,000 each for six bindings under 20,000 files; <see cref="OpenFileLimit"/>), so that no
    /// flood of connections can leave the host without the files it needs to go on running.
    /// </summary>
    public int? MaxConnections { get; set; }

    /// <summary>The limit in force: <see cref="MaxConnections"/>, else the whole open-file budget (a binding alone in its process).</summary>
    public int EffectiveMaxConnections => MaxConnections ?? OpenFileLimit.DefaultMaxConnections(OpenFileLimit.ReadSoftLimit());

    /// <summary>Throws, naming the setting, when <see cref="MaxConnections"/> is set but not positive.</summary>
    public void ThrowIfInvalid(string sectionName)
    {
        if (MaxConnections <= 0)
        {
            throw new InvalidOperationException($"{sectionName}:MaxConnections must be positive; got {MaxConnections}.");
        }
    }
}

/// <summary>The connection limit and timeouts of a binding served by a framework (CoreWCF or gRPC on Kestrel).</summary>
public abstract class FrameworkConnectionOptions : ConnectionLimitOptions
{
    /// <summary>Kestrel's own default, 30 s, and CoreWCF's channel initialization timeout.</summary>
    public static readonly TimeSpan DefaultHandshakeTimeout = TimeSpan.FromSeconds(30);

    /// <summary>Two minutes, about Kestrel's own keep-alive default (130 s).</summary>
    public static readonly TimeSpan DefaultIdleTimeout = TimeSpan.FromMinutes(2);

    /// <summary>
    /// How long a new connection may take to send its preamble (CoreWCF's channel initialization
    /// timeout) or a request its headers (Kestrel's RequestHeadersTimeout); a connection that sends
    /// part of one and stalls is closed. Defaults to 30 seconds, both frameworks' own default.
    /// </summary>
    public TimeSpan HandshakeTimeout { get; set; } = DefaultHandshakeTimeout;

    /// <summary>
    /// How long a connection may sit with no request in flight before the server closes it:
    /// Kestrel's KeepAliveTimeout (HTTP/1.1 between requests, HTTP/2 with no open stream; a gRPC
    /// subscription is an open stream) and CoreWCF's idle time between sessions on one connection.
    /// An open WCF session is governed by the binding's ReceiveTimeout (WCF's 10 minutes) instead.
    /// Defaults to 2 minutes.
    /// </summary>
    public TimeSpan IdleTimeout { get; set; } = DefaultIdleTimeout;
}
