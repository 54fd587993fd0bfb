using System.Globalization;
using System.Security.Cryptography.X509Certificates;

namespace RpcCompare.Bindings.Security;

/// <summary>
/// Who made the call a service implementation is serving, the same way on every binding: read
/// <see cref="Current"/> inside an operation. A Unix-socket binding (wcf-uds, grpc-uds, pipes)
/// knows the peer's user and process (SO_PEERCRED); a TCP binding knows the remote address and,
/// with mutual TLS, the client's certificate. Null outside a call and on inproc, where the caller
/// is the implementation's own process and nothing crosses a boundary.
/// </summary>
public sealed class CallerIdentity
{
    private static readonly AsyncLocal<CallerIdentity?> s_current = new();
    private string? _thumbprint;

    /// <param name="binding">The binding that carried the call (BindingNames).</param>
    /// <param name="peer">The peer of a Unix socket, as the kernel saw it when it connected.</param>
    /// <param name="certificate">The certificate the client presented in the TLS handshake.</param>
    /// <param name="remoteAddress">The client's address and port on a TCP binding.</param>
    public CallerIdentity(string binding, PeerCredentials? peer = null, X509Certificate2? certificate = null, string? remoteAddress = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(binding);
        Binding = binding;
        Peer = peer;
        Certificate = certificate;
        RemoteAddress = remoteAddress;
    }

    /// <summary>
    /// The caller of the operation running on this asynchronous flow. Set by the binding that
    /// dispatched it, once per connection where the connection's flow reaches the operation, else
    /// per call; an implementation only reads it.
    /// </summary>
    public static CallerIdentity? Current
    {
        get => s_current.Value;
        set => s_current.Value = value;
    }

    /// <summary>The binding that carried the call.</summary>
    public string Binding { get; }

    /// <summary>The user, group and process at the other end of a Unix socket; null on TCP.</summary>
    public PeerCredentials? Peer { get; }

    /// <summary>The client's certificate under mutual TLS (checked against the host's policy before any call); else null.</summary>
    public X509Certificate2? Certificate { get; }

    /// <summary>The SHA-256 thumbprint of <see cref="Certificate"/> (upper hex, as the host's allow-list takes it).</summary>
    public string? CertificateThumbprint => Certificate is null ? null : _thumbprint ??= Security.CertificateThumbprint.Of(Certificate);

    /// <summary>The client's address and port on a TCP binding ("127.0.0.1:41234"); null on a Unix socket.</summary>
    public string? RemoteAddress { get; }

    /// <summary>Whether the caller proved who it is: a Unix peer's user, or a client certificate.</summary>
    public bool IsAuthenticated => Peer is not null || Certificate is not null;

    /// <summary>
    /// The caller in the words the host's log uses for a refusal: "certificate &lt;SHA-256&gt; (CN=…)",
    /// "uid 1000 (pid 4242)", or "anonymous at 10.0.0.7:41234".
    /// </summary>
    public string Name => Certificate is { } certificate
        ? $"certificate {CertificateThumbprint} ({certificate.Subject})"
        : Peer is { } peer
            ? string.Create(CultureInfo.InvariantCulture, $"uid {peer.UserId} (pid {peer.ProcessId})")
            : $"anonymous at {RemoteAddress ?? "an unknown address"}";

    /// <summary>This identity with the certificate a binding learned later than the connection (WCF NetTcp's own TLS).</summary>
    public CallerIdentity WithCertificate(X509Certificate2? certificate) =>
        certificate is null || certificate == Certificate ? this : new CallerIdentity(Binding, Peer, certificate, RemoteAddress);

    public override string ToString() => $"{Name} over {Binding}";
}
