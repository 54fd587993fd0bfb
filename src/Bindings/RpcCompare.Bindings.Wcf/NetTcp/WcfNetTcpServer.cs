using CoreWCF;
using CoreWCF.Configuration;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Hosting;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;
using RpcCompare.Bindings.Wcf.Server;

namespace RpcCompare.Bindings.Wcf.NetTcp;

/// <summary>
/// wcf-nettcp: CoreWCF's NetTcp framing on Kestrel, 127.0.0.1 by default (a client dialling "localhost"
/// would try IPv6 first); transport security (TLS) when the host has it on. The address is the net.tcp:// base; each contract is at base/&lt;service name&gt;.
/// </summary>
internal sealed class WcfNetTcpServer : KestrelBindingServer
{
    private readonly WcfNetTcpBindingOptions _options;

    public WcfNetTcpServer(IServiceProvider hostServices, IOptions<WcfNetTcpBindingOptions> options)
        : base(hostServices)
    {
        _options = options.Value;
    }

    public override string Name => BindingNames.WcfNetTcp;

    protected override CarryRules Carries => WcfCarryRules.Sessionful;

    /// <summary>
    /// The binding both sides use: binary encoding, quotas from the options, and SecurityMode.None,
    /// or Transport (TLS through WCF's SSL stream upgrade) when <paramref name="tls"/>.
    /// </summary>
    public static NetTcpBinding CreateBinding(int maxMessageSize, bool tls = false, bool clientCertificates = false)
    {
        var binding = new NetTcpBinding(tls ? SecurityMode.Transport : SecurityMode.None) { MaxReceivedMessageSize = maxMessageSize, MaxBufferSize = maxMessageSize };
        if (tls)
        {
            // Transport security defaults to Windows credentials, which CoreWCF on Linux cannot check.
            binding.Security.Transport.ClientCredentialType = clientCertificates ? TcpClientCredentialType.Certificate : TcpClientCredentialType.None;
        }

        WcfServiceModel.RaiseQuotas(binding.ReaderQuotas, maxMessageSize);
        return binding;
    }

    protected override (FrameworkConnectionOptions Options, string Section) Connections => (_options, WcfNetTcpBindingOptions.SectionName);

    // NetTcp is a Kestrel connection handler: Kestrel's connection limit applies to it, its HTTP
    // timeouts do not; CoreWCF's channel initialization timeout bounds the preamble instead.
    protected override void ConfigureWebHost(IWebHostBuilder webHost)
    {
        var address = CheckedListenAddress(_options.ListenAddress, "WcfNetTcp:ListenAddress");
        webHost.UseNetTcp(options => options.Listen(new UriBuilder("net.tcp", address.ToString(), _options.Port).Uri,
            listen =>
            {
                WcfServiceModel.SetFramingTimeouts(listen.ConnectionPoolSettings, _options);
                WcfServiceModel.CountTimeouts(listen, Incidents);
                ConnectionCaller.AddTo(listen, Name);
            }));
    }

    // NetTcp sessions can call back: the push endpoints are served here.
    private IReadOnlyList<WcfEndpoint> Endpoints => WcfServiceModel.EndpointsOf(Services, HostServices, duplex: true);

    protected override void ConfigureServices(IServiceCollection services) => WcfServiceModel.AddServices(services, Name, Endpoints, _options, HostServices);

    // Relative endpoint addresses: CoreWCF adds the base address with the port Kestrel bound.
    protected override void Configure(WebApplication application) =>
        application.UseServiceModel(builder =>
        {
            WcfServiceModel.AddEndpoints(builder, Endpoints, () => CreateBinding(_options.MaxMessageSize, Security.UsesTls, Security.ClientCertificates is not null), _options,
                endpoint => new Uri(endpoint.Name, UriKind.Relative));
            if (Security.Certificate is { } certificate)
            {
                // NetTcp's TLS is WCF's own (an SSL stream upgrade inside its framing), not Kestrel's.
                builder.ConfigureAllServiceHostBase(host =>
                {
                    host.Credentials.ServiceCertificate.Certificate = certificate.Certificate;
                    if (Security.ClientCertificates is { } clients)
                    {
                        var authentication = host.Credentials.ClientCertificate.Authentication;
                        authentication.CertificateValidationMode = CoreWCF.Security.X509CertificateValidationMode.Custom;
                        authentication.CustomCertificateValidator = new ClientCertificateValidator(clients, Incidents);
                        authentication.RevocationMode = System.Security.Cryptography.X509Certificates.X509RevocationMode.NoCheck;
                        host.Description.Behaviors.Add(new CallerCertificateBehavior());
                    }
                });
            }
        });

    protected override string BoundAddress(IHost host) =>
        new UriBuilder(ListeningUrl(host)) { Scheme = "net.tcp" }.Uri.GetLeftPart(UriPartial.Authority);
}
