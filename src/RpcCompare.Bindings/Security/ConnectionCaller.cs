using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Http.Features;

namespace RpcCompare.Bindings.Security;

/// <summary>
/// The caller of a Kestrel connection, read once when it opens (its socket's peer, its TLS client
/// certificate, its remote address), checked against the host's policy, and kept two ways: on the
/// connection's flow, which reaches the operations of a binding that dispatches on that flow
/// (CoreWCF's framing and HTTP/1.1), and in the connection's items, where a binding that
/// dispatches elsewhere (gRPC's HTTP/2 streams) finds it per call with <see cref="Of"/>.
/// </summary>
/// <remarks>
/// A caller the policy refuses is not cut off at once: its connection stays long enough for each
/// call to be answered with a PermissionDenied refusal saying why (<see cref="RefusalOf"/>), which
/// a client can show, instead of a reset it cannot explain. The refusal is counted once per
/// connection, in the binding's summary line; such a connection counts against the binding's
/// connection limit and timeouts like any other.
/// </remarks>
public static class ConnectionCaller
{
    private static readonly object s_callerKey = typeof(CallerIdentity);
    private static readonly object s_refusalKey = typeof(ConnectionCaller);
    private static readonly AsyncLocal<string?> s_refusal = new();

    /// <summary>Why the connection on this flow is not served; null when it is (or is not a checked connection).</summary>
    public static string? CurrentRefusal => s_refusal.Value;

    /// <summary>
    /// Adds the middleware to a listener's pipeline; after TLS, so the handshake's client
    /// certificate is known. <paramref name="refuse"/> says why a caller is not served (and counts
    /// it), or null when it is.
    /// </summary>
    public static void AddTo(IConnectionBuilder listener, string binding, Func<CallerIdentity, string?>? refuse = null)
    {
        ArgumentNullException.ThrowIfNull(listener);
        listener.Use(next => async connection =>
        {
            var caller = Read(connection, binding);
            var refusal = refuse?.Invoke(caller);
            connection.Items[s_callerKey] = caller;
            CallerIdentity.Current = caller;
            if (refusal is not null)
            {
                connection.Items[s_refusalKey] = refusal;
                s_refusal.Value = refusal;
            }

            await next(connection);
        });
    }

    /// <summary>The caller kept in a connection's items by <see cref="AddTo"/>; null when the listener has no such middleware.</summary>
    public static CallerIdentity? Of(IFeatureCollection features) => Item(features, s_callerKey) as CallerIdentity;

    /// <summary>Why the connection is not served, from its items; null when it is.</summary>
    public static string? RefusalOf(IFeatureCollection features) => Item(features, s_refusalKey) as string;

    private static object? Item(IFeatureCollection features, object key)
    {
        ArgumentNullException.ThrowIfNull(features);
        return features.Get<IConnectionItemsFeature>()?.Items.TryGetValue(key, out var value) == true ? value : null;
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
