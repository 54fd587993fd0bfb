namespace RpcCompare.Bindings.Wcf.Uds;

/// <summary>Settings of wcf-uds: CoreWCF UnixDomainSocketBinding, binary encoding, no security.</summary>
public sealed class WcfUdsBindingOptions : WcfBindingOptions
{
    public const string SectionName = "WcfUds";

    /// <summary>
    /// Absolute path of the directory holding one socket per contract (named by its service name).
    /// Defaults to null: the host puts it in its private socket directory.
    /// </summary>
    public string? Path { get; set; }
}
