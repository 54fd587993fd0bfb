using CoreWCF;
using RpcCompare.Bindings.Limits;

namespace RpcCompare.Bindings.Wcf;

/// <summary>Settings shared by the three WCF bindings.</summary>
public abstract class WcfBindingOptions : FrameworkConnectionOptions
{
    /// <summary>
    /// Largest request or reply, in encoded bytes: MaxReceivedMessageSize, MaxBufferSize and the
    /// reader quotas (array and string length) on both sides. Defaults to 16 MiB, room for the
    /// 10,000,000-byte payloads. Past it a call fails, which clients map to QuotaExceeded.
    /// </summary>
    public int MaxMessageSize { get; set; } = 16 * 1024 * 1024;

    /// <summary>
    /// Largest Stream a client may send to a contract with streamed operations, in bytes. Such a
    /// contract's endpoint uses WCF's streamed transfer (TransferMode.Streamed): the body passes
    /// through without being buffered, so this bounds what one call may push, not memory. Defaults to 4 GiB.
    /// </summary>
    public long MaxStreamSize { get; set; } = DefaultMaxStreamSize;

    /// <summary>4 GiB.</summary>
    public const long DefaultMaxStreamSize = 4L * 1024 * 1024 * 1024;

    /// <summary>
    /// How CoreWCF maps sessions to service instances. Defaults to Single: the host's one
    /// instance from DI serves every session. CoreWCF's own default is PerSession; the runner's
    /// tuning suite measures both.
    /// </summary>
    public InstanceContextMode InstanceContextMode { get; set; } = InstanceContextMode.Single;

    /// <summary>
    /// Whether an instance takes calls concurrently. Defaults to Multiple. CoreWCF's own default,
    /// Single, serializes the calls an instance receives: every call of the host with
    /// <see cref="InstanceContextMode"/> Single, every call of one session with PerSession.
    /// </summary>
    public ConcurrencyMode ConcurrencyMode { get; set; } = ConcurrencyMode.Multiple;
}
