using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using RpcCompare.Bindings.Grpc.Server;

namespace RpcCompare.Bindings.Grpc.Tcp;

/// <summary>
/// grpc-tcp: h2c on 127.0.0.1 (or the configured address), or HTTP/2 over TLS (ALPN h2) when the
/// host has TLS on. The address is the http:// or https:// URL a GrpcChannel dials.
/// </summary>
internal sealed class GrpcTcpServer : GrpcBindingServer
{
    private readonly GrpcTcpBindingOptions _options;

    public GrpcTcpServer(IServiceProvider hostServices, IOptions<GrpcTcpBindingOptions> options)
        : base(hostServices, options.Value)
    {
        _options = options.Value;
    }

    public override string Name => BindingNames.GrpcTcp;

    protected override string SectionName => GrpcTcpBindingOptions.SectionName;

    protected override void Listen(KestrelServerOptions options) =>
        options.Listen(CheckedListenAddress(_options.ListenAddress, "GrpcTcp:ListenAddress"), _options.Port, listen =>
            ConfigureListener(listen, tls: Security.UsesTls, refuse: caller => Security.Refuse(caller, Incidents)));

    protected override string BoundAddress(IHost host) => ListeningUrl(host);
}
