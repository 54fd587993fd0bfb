using RpcCompare.Bindings.Limits;

namespace RpcCompare.Bindings.Fast;

/// <summary>Server-side settings both fast bindings share; each reads them from its own configuration section.</summary>
public abstract class FastBindingOptions : ConnectionLimitOptions
{
    /// <summary>Largest request body accepted; a larger one is answered QuotaExceeded and its connection closed. Defaults to 16 MiB.</summary>
    public int MaxMessageSize { get; set; } = 16 * 1024 * 1024;

    /// <summary>
    /// How long one frame may take to arrive once it has started, and how long a send to the client may
    /// make no progress (a client that stopped reading its replies); a slower sender, or such a reader,
    /// is disconnected. Defaults to 30 seconds.
    /// </summary>
    public TimeSpan FrameTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// How long a connection may wait between frames before the server closes it (the client
    /// reconnects on its next call). Defaults to 2 minutes, as the other bindings.
    /// </summary>
    public TimeSpan IdleTimeout { get; set; } = FrameworkConnectionOptions.DefaultIdleTimeout;

    /// <summary>
    /// How long a connection's thread polls its socket for the next request before it blocks in the
    /// receive. Zero blocks at once; longer (the low-latency mode) trades a busy core for latency.
    /// Half the cores at most spin at once; nothing spins under TLS (fast-tcp with --tls), whose records
    /// are read ahead of what the socket shows. Defaults to <see cref="FastSpin.Default"/>.
    /// </summary>
    public TimeSpan SpinWait { get; set; } = FastSpin.Default;

    /// <summary>
    /// Serve a contract through its generated code ([FastContracts], RpcCompare.Fast.Generator) when it
    /// has some that agrees with the contract model. False serves every contract through the
    /// reflection path (compiled expressions), as a contract without generated code is; for
    /// comparing the two. Defaults to true.
    /// </summary>
    public bool GeneratedCode { get; set; } = true;

    /// <summary>The configuration section these settings come from, for messages that name a setting.</summary>
    internal abstract string Section { get; }

    internal virtual void ThrowIfInvalidFast()
    {
        ThrowIfInvalid(Section);
        if (MaxMessageSize <= 0)
        {
            throw new InvalidOperationException($"{Section}:MaxMessageSize must be positive; got {MaxMessageSize}.");
        }

        if (FrameTimeout <= TimeSpan.Zero || (IdleTimeout <= TimeSpan.Zero && IdleTimeout != Timeout.InfiniteTimeSpan))
        {
            throw new InvalidOperationException($"{Section}:FrameTimeout and IdleTimeout must be positive (IdleTimeout may be infinite).");
        }

        FastSpin.ThrowIfInvalid(SpinWait, $"{Section}:SpinWait");
    }
}
