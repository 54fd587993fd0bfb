using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using RpcCompare.Bindings.Grpc.Server;
using RpcCompare.Bindings.Hosting;

namespace RpcCompare.Bindings.Grpc.Uds;

/// <summary>grpc-uds: the same gRPC service on a Unix domain socket. The address is the socket path.</summary>
internal sealed class GrpcUdsServer : GrpcBindingServer
{
    private readonly GrpcUdsBindingOptions _options;

    public GrpcUdsServer(IServiceProvider hostServices, IOptions<GrpcUdsBindingOptions> options)
        : base(hostServices, options.Value)
    {
        _options = options.Value;
    }

    public override string Name => BindingNames.GrpcUds;

    protected override string SectionName => GrpcUdsBindingOptions.SectionName;

    private string SocketPath => _options.Path is { Length: > 0 } path && System.IO.Path.IsPathRooted(path)
        ? path
        : throw new InvalidOperationException($"The grpc-uds binding needs an absolute socket path (GrpcUds:Path); got '{_options.Path}'.");

    protected override void Listen(KestrelServerOptions options)
    {
        StaleSocketFile.RemoveIfStale(SocketPath);
        options.ListenUnixSocket(SocketPath, listen => ConfigureListener(listen, refuse: caller => Peers.Refuse(caller.Peer, Incidents)));
    }

    protected override string BoundAddress(IHost host) => SocketPath;
}
