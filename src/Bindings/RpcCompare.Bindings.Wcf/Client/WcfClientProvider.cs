using System.Collections.Concurrent;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.ServiceModel.Security;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Push;
using RpcCompare.Bindings.Wcf.Push;
using RpcCompare.Contracts.Push;

namespace RpcCompare.Bindings.Wcf.Client;

/// <summary>
/// The client side of a WCF binding: one ChannelFactory&lt;T&gt; per contract and address
/// (building one is the expensive part), and per Create one channel, opened once and used for
/// every call through the returned proxy until it is released. On NetTcp and UDS a channel is a
/// connection, so concurrent callers that each create a proxy each get their own.
/// </summary>
public abstract class WcfClientProvider : IBindingClientProvider, IDisposable
{
    private readonly ConcurrentDictionary<(Type Contract, string Address), ChannelFactory> _factories = new();
    private readonly ConcurrentDictionary<Uri, DuplexChannelFactory<IPushDuplexService>> _pushFactories = new();

    protected WcfClientProvider(WcfClientOptions? options)
    {
        Options = options ?? new WcfClientOptions();
    }

    public abstract string Name { get; }

    protected WcfClientOptions Options { get; }

    /// <summary>What this binding carries (the server applies the same rules).</summary>
    internal virtual CarryRules Carries => WcfCarryRules.Sessionful;

    public IReadOnlyList<CarryRefusal> Check(Type contract) => Carries.Check(Name, contract);

    public TContract Create<TContract>(string address)
        where TContract : class
    {
        ArgumentException.ThrowIfNullOrEmpty(address);
        var factory = (ChannelFactory<TContract>)_factories.GetOrAdd((typeof(TContract), address), key =>
        {
            var endpoint = EndpointUri(WcfEndpoints.NameOf(key.Contract), key.Address);
            var binding = CreateBinding(WcfEndpoints.IsStreamed(key.Contract), UsesTls(endpoint));
            binding.OpenTimeout = Options.ConnectTimeout;
            return TrustServer(new ChannelFactory<TContract>(binding, new EndpointAddress(endpoint)));
        });
        return WcfClientProxy.Create(() => OpenChannel(factory), Options.MaxMessageSize);
    }

    public void Dispose()
    {
        foreach (var factory in _factories.Values)
        {
            factory.Abort();
        }

        _factories.Clear();
        foreach (var factory in _pushFactories.Values)
        {
            factory.Abort();
        }

        _pushFactories.Clear();
        GC.SuppressFinalize(this);
    }

    /// <summary>
    /// A push client on a duplex session of its own, for the bindings that can call back (NetTcp,
    /// UDS). <paramref name="variant"/> picks the server endpoint: typed or pre-serialized callbacks.
    /// </summary>
    protected IPushClient CreateDuplexPushClient(string address, string? variant)
    {
        ArgumentException.ThrowIfNullOrEmpty(address);
        PushVariant.ThrowUnlessOffered(variant, WcfPushEndpoints.Variants, Name);
        var factory = _pushFactories.GetOrAdd(EndpointUri(WcfPushEndpoints.NameOf(variant ?? WcfPushEndpoints.Typed), address), uri =>
        {
            var binding = CreateBinding(streamed: false, UsesTls(uri));
            binding.OpenTimeout = Options.ConnectTimeout;
            // A subscriber may hear nothing for longer than WCF's 10-minute idle limit.
            binding.ReceiveTimeout = TimeSpan.MaxValue;
            // So a subscriber learns when its server is gone (a killed host, a dead replica behind a balancer).
            var duplex = PeerSessionEndBindingElement.Apply(binding as CustomBinding ?? new CustomBinding(binding));
            return TrustServer(new DuplexChannelFactory<IPushDuplexService>(typeof(WcfPushCallback), duplex, new EndpointAddress(uri)));
        });
        return new WcfPushClient(factory, Name, Options.MaxMessageSize);
    }

    // Opened here, once per channel: a channel left to open on its first call serializes concurrent first calls.
    private static TContract OpenChannel<TContract>(ChannelFactory<TContract> factory)
    {
        var channel = factory.CreateChannel();
        try
        {
            ((ICommunicationObject)channel!).Open();
            return channel;
        }
        catch (Exception exception) when (exception is CommunicationException or TimeoutException)
        {
            ((ICommunicationObject)channel!).Abort();
            throw;
        }
    }

    /// <summary>
    /// The client binding, matching the server's, with <see cref="WcfClientOptions.MaxMessageSize"/> as its quotas;
    /// <paramref name="streamed"/> for a contract that moves Streams (<see cref="WcfEndpoints.IsStreamed"/>),
    /// <paramref name="tls"/> for transport security.
    /// </summary>
    protected abstract Binding CreateBinding(bool streamed, bool tls);

    /// <summary>Whether calls to <paramref name="endpoint"/> use TLS.</summary>
    protected abstract bool UsesTls(Uri endpoint);

    /// <summary>
    /// A pinned thumbprint replaces WCF's chain check (a host's self-signed certificate chains to
    /// nothing); without one, WCF's own checks apply. Revocation is not checked for a pinned certificate.
    /// HTTPS checks (and presents a client certificate) through the HttpClientHandler instead
    /// (<see cref="HttpsTrustBehavior"/>); NetTcp presents its client certificate through the credentials.
    /// </summary>
    private TFactory TrustServer<TFactory>(TFactory factory)
        where TFactory : ChannelFactory
    {
        // Every factory passes here: the one place a client's requests get their trace context too.
        factory.Endpoint.EndpointBehaviors.Add(TraceContextBehavior.Instance);
        if (Options.Tls is not { } tls)
        {
            return factory;
        }

        if (factory.Endpoint.Binding.CreateBindingElements().Find<HttpsTransportBindingElement>() is not null)
        {
            factory.Endpoint.EndpointBehaviors.Add(new HttpsTrustBehavior(tls));
            return factory;
        }

        // NetTcp: WCF's own SSL stream upgrade, configured through the factory's credentials.
        if (tls.ClientCertificate is { } client)
        {
            factory.Credentials.ClientCertificate.Certificate = client;
        }

        if (tls.ServerCertificateThumbprint is not null)
        {
            factory.Credentials.ServiceCertificate.SslCertificateAuthentication = new X509ServiceCertificateAuthentication
            {
                CertificateValidationMode = X509CertificateValidationMode.Custom,
                CustomCertificateValidator = new PinnedCertificateValidator(tls),
                RevocationMode = System.Security.Cryptography.X509Certificates.X509RevocationMode.NoCheck,
            };
        }

        return factory;
    }

    /// <summary>Streamed transfer on the client's side of a streamed contract's endpoint, as the server has it.</summary>
    protected void UseStreamedTransfer(Binding binding)
    {
        switch (binding)
        {
            case NetTcpBinding netTcp:
                netTcp.TransferMode = TransferMode.Streamed;
                netTcp.MaxReceivedMessageSize = Options.MaxStreamSize;
                break;
            case UnixDomainSocketBinding uds:
                uds.TransferMode = TransferMode.Streamed;
                uds.MaxReceivedMessageSize = Options.MaxStreamSize;
                break;
            case BasicHttpBinding http:
                http.TransferMode = TransferMode.Streamed;
                http.MaxReceivedMessageSize = Options.MaxStreamSize;
                break;
            default:
                throw new NotSupportedException($"No streamed transfer for {binding.GetType().Name}.");
        }
    }

    /// <summary>The URI of the endpoint named <paramref name="endpointName"/> under the binding's <paramref name="address"/>.</summary>
    protected abstract Uri EndpointUri(string endpointName, string address);

    /// <summary>
    /// Adapts a NetTcp/UDS client binding: requests over the client's limit are refused before
    /// sending (<see cref="SendLimitBindingElement"/>), and the connection buffer is raised. The WCF client sizes the socket's
    /// SO_RCVBUF/SO_SNDBUF from it (8 KiB by default); on Linux loopback, whose segments are 64 KiB,
    /// a receive buffer that small never opens the window by a full segment, so a reply of more than
    /// about 1 MB crawled through zero-window probes until the 1-minute send timeout expired.
    /// </summary>
    protected Binding ForFramingTransport(Binding binding)
    {
        var custom = new CustomBinding(binding);
        custom.Elements.Find<ConnectionOrientedTransportBindingElement>().ConnectionBufferSize = ConnectionBufferSize;
        if (custom.Elements.Find<SslStreamSecurityBindingElement>() is { } tls && Options.Tls?.ServerCertificateThumbprint is not null)
        {
            tls.IdentityVerifier = new PinnedIdentityVerifier();
        }

        return SendLimitBindingElement.Apply(custom, Options.MaxMessageSize, () =>
        {
            var binary = new BinaryMessageEncodingBindingElement();
            RaiseQuotas(binary.ReaderQuotas);
            return binary;
        });
    }

    /// <summary>64 KiB: one loopback segment (see <see cref="ForFramingTransport"/>).</summary>
    protected const int ConnectionBufferSize = 64 * 1024;

    /// <summary>Raises the reader quotas a 10 MB message meets.</summary>
    protected void RaiseQuotas(System.Xml.XmlDictionaryReaderQuotas quotas)
    {
        ArgumentNullException.ThrowIfNull(quotas);
        quotas.MaxArrayLength = Options.MaxMessageSize;
        quotas.MaxStringContentLength = Options.MaxMessageSize;
    }
}
