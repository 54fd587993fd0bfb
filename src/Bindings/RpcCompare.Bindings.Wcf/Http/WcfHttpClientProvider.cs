using System.ServiceModel;
using System.ServiceModel.Channels;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Push;
using RpcCompare.Bindings.Wcf.Client;
using RpcCompare.Bindings.Wcf.Push.LongPoll;

namespace RpcCompare.Bindings.Wcf.Http;

/// <summary>wcf-http clients; the address is the server's http://127.0.0.1:port base, or https:// for HTTPS.</summary>
public sealed class WcfHttpClientProvider : WcfClientProvider, IPushClientProvider
{
    public WcfHttpClientProvider(WcfClientOptions? options = null)
        : base(options)
    {
    }

    /// <summary>BasicHttp cannot call back: HTTP long polling against the same server instead.</summary>
    public IReadOnlyList<string> PushVariants { get; } = ["long-poll"];

    /// <summary>A push client with an HttpClient (so connections) of its own.</summary>
    public IPushClient CreatePushClient(string address, string? variant = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(address);
        PushVariant.ThrowUnlessOffered(variant, PushVariants, Name);
        var baseAddress = EndpointUri("", address);
        return new LongPollPushClient(baseAddress, Options.LongPollWait, Options.MaxMessageSize, Options.ConnectTimeout, Options.Tls);
    }

    public override string Name => BindingNames.WcfHttp;

    internal override CarryRules Carries => WcfCarryRules.BasicHttp;

    protected override bool UsesTls(Uri endpoint) => endpoint.Scheme == Uri.UriSchemeHttps;

    protected override Binding CreateBinding(bool streamed, bool tls)
    {
        var binding = new BasicHttpBinding(tls ? BasicHttpSecurityMode.Transport : BasicHttpSecurityMode.None) { MaxReceivedMessageSize = Options.MaxMessageSize, MaxBufferSize = Options.MaxMessageSize };
        RaiseQuotas(binding.ReaderQuotas);
        if (streamed)
        {
            UseStreamedTransfer(binding);
        }

        return binding;
    }

    protected override Uri EndpointUri(string endpointName, string address) =>
        Uri.TryCreate(address, UriKind.Absolute, out var uri) && (uri.Scheme == Uri.UriSchemeHttp || uri.Scheme == Uri.UriSchemeHttps)
            ? new Uri(new Uri(address.TrimEnd('/') + "/"), endpointName)
            : throw new ArgumentException($"A wcf-http address is an http:// or https:// URL such as http://127.0.0.1:8080; got '{address}'.", nameof(address));
}
