using RpcCompare.Bindings.Limits;

namespace RpcCompare.Bindings.Pipes;

/// <summary>
/// Server-side settings of the raw pipe baseline. A connection past <see cref="ConnectionLimitOptions.MaxConnections"/>
/// is answered QuotaExceeded to its first request (or, past 64 such, closed at once) while the others go on.
/// </summary>
public sealed class PipesBindingOptions : ConnectionLimitOptions
{
    /// <summary>Configuration section these options bind to.</summary>
    public const string SectionName = "Pipes";

    /// <summary>
    /// Socket path of the pipe. On Linux a named pipe is a Unix domain socket, and an absolute
    /// name is used as the socket's path as is. Defaults to null: the host puts it in its private
    /// socket directory.
    /// </summary>
    public string? Path { get; set; }

    /// <summary>
    /// Largest request or reply body accepted. Defaults to 16 MiB, room for the 10,000,000-byte
    /// payloads with their framing. Larger requests are refused with QuotaExceeded.
    /// </summary>
    public int MaxMessageSize { get; set; } = 16 * 1024 * 1024;

    /// <summary>
    /// An over-limit request up to this many times <see cref="MaxMessageSize"/> is read and
    /// discarded, so the error reaches a client still writing it and the connection stays
    /// usable; beyond that the server answers and closes. Defaults to 4.
    /// </summary>
    public int DrainFactor { get; set; } = 4;

    /// <summary>
    /// How long the rest of a frame may take once its header has arrived, and how long the client may
    /// take to read a whole reply the socket did not take at once; a client that stalls longer, or stops
    /// reading, is disconnected, so neither a half-sent frame nor an unread reply can hold a connection
    /// forever. A deadline, not a rate: the 16-MiB largest reply must go at 0.55 MB/s or more (a local
    /// client reads far faster). Defaults to 30 seconds.
    /// </summary>
    public TimeSpan FrameTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// How long a connection may wait between requests before the server closes it, as the other
    /// bindings close an idle connection (<see cref="FrameworkConnectionOptions.IdleTimeout"/>); a
    /// subscribed connection is exempt (it waits for notifications). The pipes client checks its
    /// connection before reusing one it left idle, and reconnects when the server has closed it.
    /// Defaults to 2 minutes; <see cref="Timeout.InfiniteTimeSpan"/> keeps idle connections open.
    /// </summary>
    public TimeSpan IdleTimeout { get; set; } = FrameworkConnectionOptions.DefaultIdleTimeout;
}
