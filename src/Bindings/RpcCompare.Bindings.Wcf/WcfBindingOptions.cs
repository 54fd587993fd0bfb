namespace RpcCompare.Bindings.Wcf;

/// <summary>Settings shared by the three WCF bindings.</summary>
public abstract class WcfBindingOptions
{
    /// <summary>
    /// Largest request or reply, in encoded bytes: MaxReceivedMessageSize, MaxBufferSize and the
    /// reader quotas (array and string length) on both sides. Defaults to 16 MiB, room for the
    /// 10,000,000-byte payloads. Past it a call fails, which clients map to QuotaExceeded.
    /// </summary>
    public int MaxMessageSize { get; set; } = 16 * 1024 * 1024;
}
