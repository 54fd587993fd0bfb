using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Http.Features;

namespace RpcCompare.Bindings.Security;

/// <summary>
/// The caller of a Kestrel connection, read once when it opens (its socket's peer, its TLS client
/// certificate, its remote address) and kept two ways: as <see cref="CallerIdentity.Current"/> on
/// the connection's flow, which reaches the operations of a binding that dispatches on that flow
/// (CoreWCF's framing and HTTP/1.1), and in the connection's items, where a binding that
/// dispatches elsewhere (gRPC's HTTP/2 streams) finds it per call with <see cref="Of"/>.
/// </summary>
public static class ConnectionCaller
{
    private static readonly object s_key = typeof(CallerIdentity);

    /// <summary>
    /// Adds the middleware to a listener's pipeline; after TLS, so the handshake's client
    /// certificate is known.
    /// </summary>
    public static void AddTo(IConnectionBuilder listener, string binding)
    {
        ArgumentNullException.ThrowIfNull(listener);
        listener.Use(next => async connection =>
        {
            var caller = Read(connection, binding);
            connection.Items[s_key] = caller;
            CallerIdentity.Current = caller;
            await next(connection);
        });
    }

    /// <summary>The caller kept in a connection's items by <see cref="AddTo"/>; null when the listener has no such middleware.</summary>
    public static CallerIdentity? Of(IFeatureCollection features)
    {
        ArgumentNullException.ThrowIfNull(features);
        return features.Get<IConnectionItemsFeature>()?.Items.TryGetValue(s_key, out var caller) == true ? caller as CallerIdentity : null;
    }

    private static CallerIdentity Read(ConnectionContext connection, string binding)
    {
        var socket = connection.Features.Get<IConnectionSocketFeature>()?.Socket;
        var peer = socket is { AddressFamily: AddressFamily.Unix } ? PeerCredentials.Of(socket.SafeHandle) : null;
        var certificate = connection.Features.Get<ITlsConnectionFeature>()?.ClientCertificate;
        var remote = connection.RemoteEndPoint is IPEndPoint endpoint ? endpoint.ToString() : null;
        return new CallerIdentity(binding, peer, certificate, remote);
    }
}
