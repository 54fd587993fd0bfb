using System.ServiceModel;
using System.ServiceModel.Channels;
using RpcCompare.Bindings.Wcf.Client;

namespace RpcCompare.Bindings.Wcf.Http;

/// <summary>wcf-http clients; the address is the server's http://127.0.0.1:port base.</summary>
public sealed class WcfHttpClientProvider : WcfClientProvider
{
    public WcfHttpClientProvider(WcfClientOptions? options = null)
        : base(options)
    {
    }

    public override string Name => BindingNames.WcfHttp;

    protected override Binding CreateBinding()
    {
        var binding = new BasicHttpBinding(BasicHttpSecurityMode.None) { MaxReceivedMessageSize = Options.MaxMessageSize, MaxBufferSize = Options.MaxMessageSize };
        RaiseQuotas(binding.ReaderQuotas);
        return binding;
    }

    protected override Uri EndpointUri(string endpointName, string address) =>
        Uri.TryCreate(address, UriKind.Absolute, out var uri) && uri.Scheme == Uri.UriSchemeHttp
            ? new Uri(new Uri(address.TrimEnd('/') + "/"), endpointName)
            : throw new ArgumentException($"A wcf-http address is an http:// URL such as http://127.0.0.1:8080; got '{address}'.", nameof(address));
}
