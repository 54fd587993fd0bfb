using System.ServiceModel;
using System.ServiceModel.Channels;
using RpcCompare.Bindings.Push;
using RpcCompare.Bindings.Wcf.Client;
using RpcCompare.Bindings.Wcf.Push;

namespace RpcCompare.Bindings.Wcf.Uds;

/// <summary>wcf-uds clients; the address is the server's socket directory (one socket per contract).</summary>
public sealed class WcfUdsClientProvider : WcfClientProvider, IPushClientProvider
{
    public WcfUdsClientProvider(WcfClientOptions? options = null)
        : base(options)
    {
    }

    public IReadOnlyList<string> PushVariants => WcfPushEndpoints.Variants;

    /// <summary>A push client on a duplex session (a connection) of its own.</summary>
    public IPushClient CreatePushClient(string address, string? variant = null) => CreateDuplexPushClient(address, variant);

    public override string Name => BindingNames.WcfUds;

    // A Unix socket never leaves the machine: no TLS.
    protected override bool UsesTls(Uri endpoint) => false;

    protected override Binding CreateBinding(bool streamed, bool tls)
    {
        var binding = new UnixDomainSocketBinding(UnixDomainSocketSecurityMode.None) { MaxReceivedMessageSize = Options.MaxMessageSize };
        RaiseQuotas(binding.ReaderQuotas);
        if (streamed)
        {
            UseStreamedTransfer(binding);
        }

        return ForFramingTransport(binding);
    }

    protected override Uri EndpointUri(string endpointName, string address) =>
        Path.IsPathRooted(address)
            ? new Uri("net.uds://" + Path.Combine(address, endpointName))
            : throw new ArgumentException($"A wcf-uds address is the absolute path of the host's wcf-uds socket directory; got '{address}'.", nameof(address));
}
