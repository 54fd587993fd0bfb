using CoreWCF;
using CoreWCF.Configuration;
using CoreWCF.Description;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using RpcCompare.Bindings.Carrying;
using RpcCompare.Bindings.Hosting;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;
using RpcCompare.Bindings.Wcf.Push.LongPoll;
using RpcCompare.Bindings.Wcf.Server;
using RpcCompare.Push;

namespace RpcCompare.Bindings.Wcf.Http;

/// <summary>
/// wcf-http: CoreWCF BasicHttpBinding on Kestrel, HTTP/1.1 on 127.0.0.1, or HTTPS (the secure
/// BasicHttp binding, TLS by Kestrel) when the host has TLS on. The address is the http:// or https:// base; each contract is at base/&lt;service name&gt;, its WSDL at base/&lt;service name&gt;?wsdl.
/// </summary>
internal sealed class WcfHttpServer : KestrelBindingServer
{
    private readonly WcfHttpBindingOptions _options;

    public WcfHttpServer(IServiceProvider hostServices, IOptions<WcfHttpBindingOptions> options)
        : base(hostServices)
    {
        _options = options.Value;
    }

    public override string Name => BindingNames.WcfHttp;

    protected override CarryRules Carries => WcfCarryRules.BasicHttp;

    /// <summary>The binding both sides use: text SOAP 1.1, buffered, quotas from the options; HTTPS (Transport security) when <paramref name="tls"/>.</summary>
    public static BasicHttpBinding CreateBinding(int maxMessageSize, bool tls = false)
    {
        var binding = new BasicHttpBinding(tls ? CoreWCF.Channels.BasicHttpSecurityMode.Transport : CoreWCF.Channels.BasicHttpSecurityMode.None) { MaxReceivedMessageSize = maxMessageSize, MaxBufferSize = maxMessageSize };
        WcfServiceModel.RaiseQuotas(binding.ReaderQuotas, maxMessageSize);
        return binding;
    }

    protected override (FrameworkConnectionOptions Options, string Section) Connections => (_options, WcfHttpBindingOptions.SectionName);

    protected override void ConfigureKestrel(KestrelServerOptions options)
    {
        // No Kestrel body limit: CoreWCF enforces MaxReceivedMessageSize itself and checks the
        // Content-Length before reading, so an over-quota request gets a 413 the WCF client reads.
        // Kestrel's own limit would reset the connection while the client is still sending, and
        // the client would report a broken pipe instead.
        options.Limits.MaxRequestBodySize = null;
        options.Listen(CheckedListenAddress(_options.ListenAddress, "WcfHttp:ListenAddress"), _options.Port, listen =>
        {
            listen.Protocols = HttpProtocols.Http1;
            if (Security.UsesTls)
            {
                Security.UseTls(listen, _options.HandshakeTimeout);
            }

            ConnectionCaller.AddTo(listen, Name, caller => Security.Refuse(caller, Incidents));
        });
    }

    protected override void ConfigureServices(IServiceCollection services)
    {
        WcfServiceModel.AddServices(services, Name, Endpoints, _options, HostServices);
        services.AddServiceModelMetadata();
        MetadataRequests.AddServices(services);
        // The WSDL's addresses follow the Host header a client used, not the listen address: a host
        // listening on 0.0.0.0 in a container would otherwise send clients to http://0.0.0.0:8080.
        services.AddSingleton<IServiceBehavior, UseRequestHeadersForMetadataAddressBehavior>();
        if (HostServices.GetService<TopicRegistry>() is { } registry)
        {
            // BasicHttp cannot call back: HTTP clients subscribe by long polling instead.
            services.AddSingleton(Options.Create(_options));
            LongPollEndpoints.AddServices(services, registry);
        }
    }

    protected override void Configure(WebApplication application)
    {
        // First: a caller the host does not serve is answered before anything reads its request.
        HttpCallerRefusal.AddTo(application);
        // HTTPS has its own switch: with only HttpGetEnabled, an HTTPS request got the WSDL but with the
        // listen address (https://0.0.0.0:8080 in a container) instead of the one the client asked for.
        var metadata = application.Services.GetRequiredService<ServiceMetadataBehavior>();
        metadata.HttpGetEnabled = !Security.UsesTls;
        metadata.HttpsGetEnabled = Security.UsesTls;
        // ?wsdl answers with the one self-contained document (?singleWsdl); ?wsdl=wsdl0 and ?xsd=xsd0
        // still answer. Metadata requests are answered one at a time (CoreWCF's WSDL export is not
        // safe to run for two services at once: MetadataRequests says why).
        MetadataRequests.AddTo(application);
        if (application.Services.GetService<LongPollSessions>() is not null)
        {
            LongPollEndpoints.Map(application);
        }

        // CoreWCF (1.9.1) reads a streamed request's SOAP envelope with synchronous reads, which
        // Kestrel refuses by default (a 400 without a log line): allowed for the streamed endpoints only.
        var streamed = Endpoints.Where(e => e.IsStreamed).Select(e => new PathString("/" + e.Name)).ToArray();
        if (streamed.Length > 0)
        {
            application.Use((context, next) =>
            {
                if (Array.Exists(streamed, path => context.Request.Path.StartsWithSegments(path)))
                {
                    context.Features.GetRequiredFeature<IHttpBodyControlFeature>().AllowSynchronousIO = true;
                }

                return next(context);
            });
        }

        application.UseServiceModel(builder => WcfServiceModel.AddEndpoints(builder, Endpoints, () => CreateBinding(_options.MaxMessageSize, Security.UsesTls), _options,
            endpoint => new Uri(endpoint.Name, UriKind.Relative)));
    }

    // BasicHttp has no callback channel: no duplex push endpoints here.
    private IReadOnlyList<WcfEndpoint> Endpoints => WcfServiceModel.EndpointsOf(Services, HostServices, duplex: false);

    protected override string BoundAddress(IHost host) => ListeningUrl(host);
}
