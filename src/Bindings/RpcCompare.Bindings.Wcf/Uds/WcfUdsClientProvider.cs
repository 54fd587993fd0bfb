using System.ServiceModel;
using System.ServiceModel.Channels;
using RpcCompare.Bindings.Wcf.Client;

namespace RpcCompare.Bindings.Wcf.Uds;

/// <summary>wcf-uds clients; the address is the server's socket directory (one socket per contract).</summary>
public sealed class WcfUdsClientProvider : WcfClientProvider
{
    public WcfUdsClientProvider(WcfClientOptions? options = null)
        : base(options)
    {
    }

    public override string Name => BindingNames.WcfUds;

    protected override Binding CreateBinding()
    {
        var binding = new UnixDomainSocketBinding(UnixDomainSocketSecurityMode.None) { MaxReceivedMessageSize = Options.MaxMessageSize };
        RaiseQuotas(binding.ReaderQuotas);
        return ForFramingTransport(binding);
    }

    protected override Uri EndpointUri(Type contract, string address) =>
        Path.IsPathRooted(address)
            ? new Uri("net.uds://" + Path.Combine(address, WcfEndpoints.NameOf(contract)))
            : throw new ArgumentException($"A wcf-uds address is the absolute path of the host's wcf-uds socket directory; got '{address}'.", nameof(address));
}
