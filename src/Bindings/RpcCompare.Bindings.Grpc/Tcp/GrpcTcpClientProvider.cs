using RpcCompare.Bindings.Grpc.Client;

namespace RpcCompare.Bindings.Grpc.Tcp;

/// <summary>grpc-tcp clients; the address is the server's http://127.0.0.1:port URL, or https:// for TLS.</summary>
public sealed class GrpcTcpClientProvider : GrpcClientProvider
{
    public GrpcTcpClientProvider(GrpcClientOptions? options = null)
        : base(options)
    {
    }

    public override string Name => BindingNames.GrpcTcp;

    protected override Uri ChannelAddress(string address) =>
        Uri.TryCreate(address, UriKind.Absolute, out var uri) && (uri.Scheme == Uri.UriSchemeHttp || uri.Scheme == Uri.UriSchemeHttps)
            ? uri
            : throw new ArgumentException($"A grpc-tcp address is an http:// or https:// URL such as http://127.0.0.1:5000; got '{address}'.", nameof(address));
}
