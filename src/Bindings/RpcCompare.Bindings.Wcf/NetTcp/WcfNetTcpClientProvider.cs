using System.ServiceModel;
using System.ServiceModel.Channels;
using RpcCompare.Bindings.Push;
using RpcCompare.Bindings.Wcf.Client;
using RpcCompare.Bindings.Wcf.Push;

namespace RpcCompare.Bindings.Wcf.NetTcp;

/// <summary>wcf-nettcp clients; the address is the server's net.tcp://127.0.0.1:port base; TLS when <see cref="WcfClientOptions.Tls"/> is set.</summary>
public sealed class WcfNetTcpClientProvider : WcfClientProvider, IPushClientProvider
{
    public WcfNetTcpClientProvider(WcfClientOptions? options = null)
        : base(options)
    {
    }

    public IReadOnlyList<string> PushVariants => WcfPushEndpoints.Variants;

    /// <summary>A push client on a duplex session (a connection) of its own.</summary>
    public IPushClient CreatePushClient(string address, string? variant = null) => CreateDuplexPushClient(address, variant);

    public override string Name => BindingNames.WcfNetTcp;

    // A net.tcp:// address cannot say whether the server speaks TLS: the options do (the endpoints file's thumbprint).
    protected override bool UsesTls(Uri endpoint) => Options.Tls is not null;

    protected override Binding CreateBinding(bool streamed, bool tls)
    {
        var binding = new NetTcpBinding(tls ? SecurityMode.Transport : SecurityMode.None) { MaxReceivedMessageSize = Options.MaxMessageSize, MaxBufferSize = Options.MaxMessageSize };
        if (tls)
        {
            // A client certificate goes with the server's mutual TLS (it must be asked for to be sent).
            binding.Security.Transport.ClientCredentialType = Options.Tls?.ClientCertificate is null ? TcpClientCredentialType.None : TcpClientCredentialType.Certificate;
        }

        RaiseQuotas(binding.ReaderQuotas);
        if (streamed)
        {
            UseStreamedTransfer(binding);
        }

        return ForFramingTransport(binding);
    }

    protected override Uri EndpointUri(string endpointName, string address) =>
        Uri.TryCreate(address, UriKind.Absolute, out var uri) && uri.Scheme == "net.tcp"
            ? new Uri(uri, endpointName)
            : throw new ArgumentException($"A wcf-nettcp address is a net.tcp:// URL such as net.tcp://127.0.0.1:8808; got '{address}'.", nameof(address));
}
