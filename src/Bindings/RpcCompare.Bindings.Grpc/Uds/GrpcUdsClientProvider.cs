using RpcCompare.Bindings.Grpc.Client;

namespace RpcCompare.Bindings.Grpc.Uds;

/// <summary>grpc-uds clients; the address is the server's socket path.</summary>
public sealed class GrpcUdsClientProvider : GrpcClientProvider
{
    public GrpcUdsClientProvider(GrpcClientOptions? options = null)
        : base(options)
    {
    }

    public override string Name => BindingNames.GrpcUds;

    // The authority is only the HTTP/2 :authority header; the connection goes to the socket.
    protected override Uri ChannelAddress(string address) => new("http://localhost");

    protected override SocketsHttpHandler CreateHandler(string address)
    {
        if (!Path.IsPathRooted(address))
        {
            throw new ArgumentException($"A grpc-uds address is an absolute socket path; got '{address}'.", nameof(address));
        }

        return base.CreateHandler(address).ConnectingTo(address);
    }
}
