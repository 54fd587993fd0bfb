namespace RpcCompare.Bindings.Wcf.NetTcp;

/// <summary>Settings of wcf-nettcp: CoreWCF NetTcpBinding, binary encoding, no security, on 127.0.0.1.</summary>
public sealed class WcfNetTcpBindingOptions : WcfBindingOptions
{
    public const string SectionName = "WcfNetTcp";

    /// <summary>TCP port on 127.0.0.1. Defaults to 0: a free port, published in the endpoints file.</summary>
    public int Port { get; set; }
}
