using System.Net.Sockets;
using RpcCompare.Bindings.Fast.Transport;
using RpcCompare.Bindings.Hosting;
using RpcCompare.Bindings.Limits;
using RpcCompare.Bindings.Security;

namespace RpcCompare.Bindings.Fast.Server;

/// <summary>fast-uds: a Unix socket file; the caller is the peer's user and process (SO_PEERCRED), served or not by the host's <see cref="UnixPeerPolicy"/>.</summary>
internal sealed class FastUdsListener(FastUdsBindingOptions options, UnixPeerPolicy peers) : FastListener
{
    public override string Binding => BindingNames.FastUds;

    public override FastBindingOptions Options => options;

    public override (Socket Socket, string Address) Open()
    {
        var path = options.Path!;
        StaleSocketFile.RemoveIfStale(path);
        return (Listen(new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified), new UnixDomainSocketEndPoint(path)), path);
    }

    public override (CallerIdentity Caller, string? Denied) Accept(FastTransport transport, ConnectionIncidents incidents)
    {
        var peer = PeerCredentials.Of(transport.Socket.SafeHandle);
        return (new CallerIdentity(Binding, peer), peers.Refuse(peer, incidents));
    }

    public override void Closed(string address)
    {
        if (File.Exists(address))
        {
            File.Delete(address);
        }
    }
}
